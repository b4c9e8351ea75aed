import type { PointType } from "@/db/schema/pickup-points";
import { currentEnv } from "@/server/env";

/**
 * The directory's feeds: what each syncs, how often, and with which of the operator's credentials (environment,
 * never a partner's profile). Packeta asks for at least a daily sync and recommends several (pickup-points.md A.8):
 * its points and boxes every 6 hours (the contract's minimum), its carriers daily; PPL gives no guidance, daily.
 */
export const FEEDS = {
  "packeta-points": { courier: "packeta", type: "POINT", intervalHours: 6, cron: "5 */6 * * *" },
  "packeta-boxes": { courier: "packeta", type: "LOCKER", intervalHours: 6, cron: "20 */6 * * *" },
  "packeta-carriers": { courier: "packeta", intervalHours: 24, cron: "35 3 * * *" },
  "ppl-access-points": { courier: "ppl", intervalHours: 24, cron: "50 3 * * *" },
} as const satisfies Record<
  string,
  { courier: "packeta" | "ppl"; type?: PointType; intervalHours: number; cron: string }
>;

export type FeedId = keyof typeof FEEDS;
export const FEED_IDS = Object.keys(FEEDS) as FeedId[];

export type PacketaDirectoryConfig = { apiKey: string; feedUrl: string };
export type PplDirectoryConfig = { clientId: string; clientSecret: string; baseUrl: string };
export type DirectoryConfig = { packeta?: PacketaDirectoryConfig; ppl?: PplDirectoryConfig };

/** The credentials configured now (read at call time, so a test or `npm run dev` can set them before a sync). */
export function directoryConfigFromEnv(): DirectoryConfig {
  const config: DirectoryConfig = {};
  const packetaKey = currentEnv.PACKETA_API_KEY;
  if (packetaKey) config.packeta = { apiKey: packetaKey, feedUrl: currentEnv.PACKETA_FEED_URL.replace(/\/+$/, "") };
  const clientId = currentEnv.PPL_DIRECTORY_CLIENT_ID;
  const clientSecret = currentEnv.PPL_DIRECTORY_CLIENT_SECRET;
  if (clientId && clientSecret)
    config.ppl = { clientId, clientSecret, baseUrl: currentEnv.COURIER_PPL_URL.replace(/\/+$/, "") };
  return config;
}
