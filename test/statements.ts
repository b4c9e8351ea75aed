import { getDb } from "@/db/client";

/**
 * Every statement sent to the database while `run` runs, drizzle's and the hand-written ones (db/client `queryRows`)
 * alike: both go through the driver client of the database handle, wrapped here for the call.
 */
export async function statementsDuring(run: () => Promise<unknown>): Promise<string[]> {
  const client = ((await getDb()) as unknown as { session: { client: Record<string, unknown> } }).session.client;
  const sent: string[] = [];
  const wrapped = ["unsafe", "query", "exec", "begin", "reserve", "transaction"].flatMap((name) => {
    const original = client[name];
    if (typeof original !== "function") return [];
    client[name] = (...args: unknown[]) => {
      sent.push(String(args[0]));
      return (original as (...a: unknown[]) => unknown).apply(client, args);
    };
    return [[name, original] as const];
  });
  try {
    await run();
  } finally {
    for (const [name, original] of wrapped) client[name] = original;
  }
  return sent;
}
