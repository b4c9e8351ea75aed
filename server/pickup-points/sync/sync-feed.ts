import type { Executor } from "@/db/client";
import { logger } from "@/server/observability/logger";
import { recordDirectoryMetrics } from "./directory-metrics";
import { drain, FeedError, fetchFeed } from "./fetch-feed";
import type { FeedPoint, Skipped } from "./feed-point";
import {
  FEEDS,
  type DirectoryConfig,
  type FeedId,
  type PacketaDirectoryConfig,
  type PplDirectoryConfig,
} from "./feeds";
import { parsePacketaCarrier, parsePacketaPoint, type PacketaCarrier } from "./parse-packeta";
import { parsePplAccessPoint } from "./parse-ppl";
import { readJsonArray } from "./read-json-array";
import {
  closeUnseen,
  countPoints,
  recordSyncFailure,
  recordSyncStart,
  recordSyncSuccess,
  writeCarriers,
  writePoints,
  type FeedScope,
  type WriteCounts,
} from "./write-directory";

/**
 * One sync of one feed: downloaded as a stream, parsed entry by entry, written as a diff in batches; on success the
 * scope's rows the feed no longer lists are closed and the sync's state recorded, on failure (an answer other than
 * 200, a cut connection, malformed JSON, a feed listing nothing where points are open) only the error is recorded.
 */

export const BATCH_SIZE = 1000;
/** PPL's page size: the largest its `Limit` allows (B.2). */
export const PPL_PAGE_SIZE = 1000;
const PROGRESS_EVERY = 20_000;

export type SyncResult =
  | {
      outcome: "synced";
      listed: number;
      changed: number;
      unchanged: number;
      closed: number;
      skipped: number;
      durationMs: number;
    }
  | { outcome: "failed"; error: string; durationMs: number }
  | { outcome: "not-configured" };

export async function syncFeed(db: Executor, feed: FeedId, config: DirectoryConfig): Promise<SyncResult> {
  const definition = FEEDS[feed];
  const credentials = config[definition.courier];
  if (!credentials) return { outcome: "not-configured" };
  const startedAt = new Date();
  const started = performance.now();
  const today = startedAt.toISOString().slice(0, 10);
  await recordSyncStart(db, feed, definition.courier, startedAt);
  logger.info({ feed }, "pickup-point sync started");
  const counts: WriteCounts & { skipped: number; closed: number } = {
    listed: 0,
    changed: 0,
    unchanged: 0,
    skipped: 0,
    closed: 0,
  };
  const skipReasons = new Map<string, number>();
  const keep = <T extends object>(items: (T | Skipped)[]): T[] =>
    items.filter((item): item is T => {
      if (!("reason" in item)) return true;
      counts.skipped += 1;
      skipReasons.set(item.reason, (skipReasons.get(item.reason) ?? 0) + 1);
      return false;
    });
  let nextProgress = PROGRESS_EVERY;
  let openPoints: number | null = null;
  const writeBatch = async (points: FeedPoint[]) => {
    await writePoints(db, points, startedAt, today, counts);
    if (counts.listed >= nextProgress) {
      nextProgress += PROGRESS_EVERY;
      logger.info({ feed, listed: counts.listed, changed: counts.changed }, "pickup-point sync progress");
    }
  };
  try {
    const scope: FeedScope = {
      courier: definition.courier,
      ...("type" in definition ? { type: definition.type } : {}),
    };
    if (feed === "packeta-carriers") {
      const carriers: PacketaCarrier[] = [];
      await readJsonArray(
        await packetaFeed(credentials as PacketaDirectoryConfig, "carrier"),
        BATCH_SIZE,
        async (items) => {
          carriers.push(...keep(items.map(parsePacketaCarrier)));
        },
      );
      if (carriers.length === 0) throw new FeedError("Packeta's carrier feed listed no carriers");
      await writeCarriers(db, carriers, startedAt);
      counts.listed = carriers.length;
    } else {
      if (feed === "ppl-access-points") await readPpl(credentials as PplDirectoryConfig, keep, writeBatch);
      else {
        const kind = feed === "packeta-boxes" ? "box" : "branch";
        await readJsonArray(await packetaFeed(credentials as PacketaDirectoryConfig, kind), BATCH_SIZE, (items) =>
          writeBatch(keep(items.map((item) => parsePacketaPoint(kind, item)))),
        );
      }
      // An empty list where the directory has open points is an outage at the courier, not every point closing.
      if (counts.listed === 0 && (await countPoints(db, scope)) > 0)
        throw new FeedError("the feed listed no points while the directory has open ones");
      counts.closed = await closeUnseen(db, scope, startedAt, today);
      // Counted here, once per sync, for `GET /couriers`: a count on every call read the whole directory.
      openPoints = await countPoints(db, scope);
    }
    const durationMs = performance.now() - started;
    await recordSyncSuccess(db, feed, durationMs, counts.listed, openPoints);
    await recordDirectoryMetrics(db, feed, "synced", durationMs);
    logger.info(
      { feed, ...counts, skipReasons: Object.fromEntries(skipReasons), durationMs: Math.round(durationMs) },
      "pickup-point sync done",
    );
    return { outcome: "synced", ...counts, durationMs };
  } catch (error) {
    const durationMs = performance.now() - started;
    const message =
      error instanceof FeedError ? error.message : `${feed}: ${(error as Error)?.message ?? String(error)}`;
    await recordSyncFailure(db, feed, message);
    await recordDirectoryMetrics(db, feed, "failed", durationMs);
    logger.error(
      { feed, error: message, listed: counts.listed, durationMs: Math.round(durationMs) },
      "pickup-point sync failed",
    );
    return { outcome: "failed", error: message, durationMs };
  }
}

/** Packeta's v5 feed of one kind, its 200 answer's body; the key is in the URL's path and so never in a message. */
async function packetaFeed(config: PacketaDirectoryConfig, kind: "branch" | "box" | "carrier") {
  const label = `Packeta's ${kind} feed`;
  const response = await fetchFeed(
    label,
    `${config.feedUrl}/v5/${encodeURIComponent(config.apiKey)}/${kind}.json?lang=en`,
    {
      headers: { accept: "application/json" },
    },
  );
  if (response.status !== 200) {
    await drain(response);
    throw new FeedError(
      response.status === 401 || response.status === 403
        ? `${label}: the API key was refused (HTTP ${response.status})`
        : `${label}: HTTP ${response.status}`,
      response.status,
    );
  }
  return response.body;
}

/** PPL's `/accessPoint`, page by page (Limit/Offset, until a short page or the total it reports). */
async function readPpl(
  config: PplDirectoryConfig,
  keep: (items: (FeedPoint | Skipped)[]) => FeedPoint[],
  writeBatch: (points: FeedPoint[]) => Promise<void>,
): Promise<void> {
  const token = await pplToken(config);
  for (let offset = 0; ; offset += PPL_PAGE_SIZE) {
    const label = `PPL's access points (offset ${offset})`;
    const query = new URLSearchParams({ Limit: String(PPL_PAGE_SIZE), Offset: String(offset) });
    const response = await fetchFeed(label, `${config.baseUrl}/accessPoint?${query}`, {
      headers: { authorization: `Bearer ${token}`, accept: "application/json", "accept-language": "cs-CZ" },
    });
    if (response.status !== 200) {
      const detail = await drain(response);
      throw new FeedError(`${label}: HTTP ${response.status} ${detail.slice(0, 300)}`.trim(), response.status);
    }
    const page: unknown[] = [];
    await readJsonArray(response.body, PPL_PAGE_SIZE, async (items) => void page.push(...items));
    await writeBatch(keep(page.map(parsePplAccessPoint)));
    const total = Number(response.headers.get("x-paging-total-items-count"));
    if (page.length < PPL_PAGE_SIZE || (Number.isFinite(total) && offset + page.length >= total)) return;
  }
}

async function pplToken(config: PplDirectoryConfig): Promise<string> {
  const label = "PPL's token endpoint";
  const response = await fetchFeed(label, `${config.baseUrl}/login/getAccessToken`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: config.clientId,
      client_secret: config.clientSecret,
      scope: "myapi2",
    }).toString(),
  });
  const text = await drain(response);
  if (response.status === 400 || response.status === 401)
    throw new FeedError(`${label}: the client credentials were refused (HTTP ${response.status})`, response.status);
  if (response.status !== 200) throw new FeedError(`${label}: HTTP ${response.status}`, response.status);
  const token = (JSON.parse(text) as { access_token?: unknown }).access_token;
  if (typeof token !== "string" || token === "") throw new FeedError(`${label}: no access token`);
  return token;
}
