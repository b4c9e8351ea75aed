/**
 * Feed readers: each follows `next` from GET /api/v2/events as an ERP would, with random page sizes, through
 * whichever web process is up, and records every id it is given and when.
 */
import type { Cluster } from "./cluster";
import { sleep, type Random } from "./random";
import type { Tenant } from "./tenants";

export type Reader = {
  name: string;
  tenant: string;
  accountId: string;
  /** Every id returned, in order (duplicates kept: they are a violation). */
  ids: string[];
  /** Per event id, when the read that first returned it was sent. */
  firstSeen: Map<string, number>;
  cursor: string | null;
  errors: number;
  /** Whether the last page answered `next: null` (caught up) and when. */
  caughtUpAt: number | null;
  /** When each read that answered `next: null` (nothing more) was sent: the feed said it had nothing else then. */
  caughtUpReads: number[];
};

export function startReader(
  cluster: Cluster,
  tenant: Tenant,
  name: string,
  random: Random,
  stopped: () => boolean,
): { reader: Reader; done: Promise<void> } {
  const reader: Reader = {
    name,
    tenant: tenant.name,
    accountId: tenant.accountId,
    ids: [],
    firstSeen: new Map(),
    cursor: null,
    errors: 0,
    caughtUpAt: null,
    caughtUpReads: [],
  };
  const done = (async () => {
    let i = 0;
    while (!stopped()) {
      const urls = cluster.liveWebUrls();
      if (!urls.length) {
        await sleep(200);
        continue;
      }
      const limit = random.int(1, 100);
      const query = `?limit=${limit}${reader.cursor ? `&after=${reader.cursor}` : ""}`;
      const sent = Date.now();
      try {
        const res = await fetch(`${urls[i++ % urls.length]}/api/v2/events${query}`, {
          headers: { "x-api-key": tenant.key },
          signal: AbortSignal.timeout(15_000),
        });
        if (!res.ok) {
          reader.errors += 1;
          await res.arrayBuffer();
          await sleep(250);
          continue;
        }
        const page = (await res.json()) as { items: { id: string }[]; next: string | null };
        const now = Date.now();
        for (const e of page.items) {
          reader.ids.push(e.id);
          // When the read that first returned it was sent: that read is not one that answered without it.
          if (!reader.firstSeen.has(e.id)) reader.firstSeen.set(e.id, sent);
        }
        if (page.items.length) reader.cursor = page.items.at(-1)!.id;
        reader.caughtUpAt = page.next === null ? now : null;
        if (page.next === null) reader.caughtUpReads.push(sent);
        if (page.next === null) await sleep(random.int(50, 400));
      } catch {
        reader.errors += 1;
        await sleep(250);
      }
    }
  })();
  return { reader, done };
}
