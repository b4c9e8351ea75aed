import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { trustProxies } from "./http/client-address";
import { DEFAULT_MAP_TILE_URL } from "@/lib/map-tiles";

const schema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  DATABASE_URL: z.string().url().optional(),
  /** Where the embedded PGlite database lives when DATABASE_URL is not set. */
  DATA_DIR: z.string().default(".data"),
  AUTH_SECRET: z.string().min(32, "AUTH_SECRET must be at least 32 characters").optional(),
  /** 32 bytes, base64: the key courier credentials and webhook secrets are encrypted under (server/secrets/). */
  SECRETS_KEY: z.string().optional(),
  /** The key before a rotation: still opens what it sealed until `npm run admin -- secrets:rotate` re-encrypts it. */
  SECRETS_KEY_PREVIOUS: z.string().optional(),
  /** Sandbox courier: how long to wait for an answer before reporting COURIER_TIMEOUT. */
  COURIER_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  DATABASE_POOL_MAX: z.coerce.number().int().positive().default(10),
  /**
   * `transaction`: DATABASE_URL is a connection pooler in transaction mode (PgBouncer): no named prepared statements,
   * no session settings (the pooler sets the timeouts on its server connections). Migrations then use
   * DATABASE_DIRECT_URL (a session lock serialises them) when it is set.
   */
  DATABASE_POOLER: z.enum(["none", "transaction"]).default("none"),
  DATABASE_DIRECT_URL: z.string().url().optional(),
  /**
   * The platform's public origin (`https://ship.example`): the only source of absolute links (label URLs in answers
   * and events, the OpenAPI document's server) and of the dashboard cookie's `Secure` flag. Required in production;
   * development and tests default to http://localhost:<PORT>. Never taken from a request's headers.
   */
  PUBLIC_URL: z
    .string()
    .url()
    .refine((v) => /^https?:$/.test(new URL(v).protocol), "PUBLIC_URL must be an http:// or https:// URL")
    .refine((v) => ["", "/"].includes(new URL(v).pathname) && !new URL(v).search && !new URL(v).hash, {
      message: "PUBLIC_URL must be an origin only (https://ship.example), without a path, query or fragment",
    })
    .transform((v) => new URL(v).origin)
    .optional(),
  PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** `off`: this web process runs no background jobs (run `npm run worker` somewhere). */
  WORKER: z.enum(["on", "off"]).default("on"),
  /** Webhook targets on loopback, private and link-local addresses, and plain http://: development and tests only. */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true"),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** Seconds before each retry of a failed delivery; after the last one the delivery is marked failed. */
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .regex(/^\d+(\.\d+)?(,\d+(\.\d+)?)*$/, "a comma-separated list of seconds")
    .default("5,300,1800,7200,18000,36000,36000")
    .transform((v) => v.split(",").map(Number)),
  /** How often an idle worker asks for jobs, in seconds (pg-boss allows 0.5 and more). */
  WORKER_POLLING_SECONDS: z.coerce.number().min(0.5).default(0.5),
  /** How often expired jobs (a worker that died mid-job) are failed over to a retry, in seconds. */
  WORKER_MAINTENANCE_SECONDS: z.coerce.number().int().min(1).default(60),
  /**
   * The operator's proxies in front of the app (a load balancer, a CDN's ranges): comma-separated addresses and CIDR
   * ranges, IPv4 and IPv6 (or proxy-addr's names `loopback`, `linklocal`, `uniquelocal`). A request whose TCP peer is
   * one of them is from the X-Forwarded-For entry that proxy appended, walked from the right while the hop is
   * trusted; empty (the default) trusts no one: the client is the TCP peer (server/http/client-address.ts).
   */
  TRUSTED_PROXIES: z
    .string()
    .default("")
    .transform((value) =>
      value
        .split(",")
        .map((entry) => entry.trim())
        .filter((entry) => entry.length > 0),
    )
    .superRefine((ranges, ctx) => {
      for (const range of ranges) {
        try {
          trustProxies([range]);
        } catch {
          ctx.addIssue({ code: "custom", message: `"${range}" is not an IP address or CIDR range` });
        }
      }
    }),
  /** Replaced by TRUSTED_PROXIES: a hop count let a request that reached the app directly choose its entry. */
  TRUSTED_PROXY_HOPS: z
    .undefined({
      error: "replaced by TRUSTED_PROXIES, the address ranges of your proxies (docs/production.md)",
    })
    .optional(),
  /**
   * Requests a minute that all of one account's API keys together may make (each key has its own limit too; a batch
   * counts by its orders, expensive reads by their weight). A tenant sets its keys' limits and creates keys as it
   * likes: this is the operator's ceiling over them.
   */
  ACCOUNT_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(10_000_000).default(6000),
  /**
   * Requests a minute one client address (an IPv6 client per /64) may make with one publishable key: its key's own
   * limit is shared by every shopper of the shop, this keeps one of them from spending it all.
   */
  PUBLISHABLE_KEY_ADDRESS_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(10_000_000).default(120),
  /** Map tiles of the pickup-point picker and widget (`{z}`, `{x}`, `{y}`); the list works without them. */
  MAP_TILE_URL: z
    .url({ protocol: /^https?$/, error: "MAP_TILE_URL must be an http(s) URL with {z}, {x} and {y}" })
    .default(DEFAULT_MAP_TILE_URL),
  /** Requests a minute one signed-in user's dashboard validate, create, label, statistics and courier check may make. */
  USER_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(10_000_000).default(600),
  /** Bearer token for GET /api/metrics; unset, the route answers 404. */
  METRICS_TOKEN: z.string().min(16, "METRICS_TOKEN must be at least 16 characters").optional(),
  /** A dedicated worker (`npm run worker`) serves its own metrics on this port (127.0.0.1 unless METRICS_HOST). */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  METRICS_HOST: z.string().default("127.0.0.1"),
  /** Webhook deliveries one worker process runs at a time. */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(500).default(64),
  /**
   * Deliveries in flight to one account's endpoints together (per worker process): however many of its endpoints
   * hang, the rest of WEBHOOK_CONCURRENCY is other accounts'. The rest wait in their queues, no attempt spent.
   */
  WEBHOOK_ACCOUNT_CONCURRENCY: z.coerce.number().int().min(1).max(500).default(16),
  /** Deliveries in flight to one endpoint (per worker process); the rest wait in its queue, no attempt spent. */
  WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(8),
  /**
   * The pickup-point directory's credentials (server/pickup-points/sync/feeds.ts reads them when a sync runs): the
   * operator's, never a partner's. Packeta's 16-character API key (the first 16 of an API password) for its v5
   * feeds at PACKETA_FEED_URL; PPL's client id and secret for `GET /accessPoint` at COURIER_PPL_URL. A courier
   * without them has no directory sync (logged once by the worker).
   */
  PACKETA_API_KEY: z
    .string()
    .regex(/^[A-Za-z0-9]{16}$/, "PACKETA_API_KEY must be Packeta's 16-character API key")
    .optional(),
  PACKETA_FEED_URL: z.string().url().default("https://pickup-point.api.packeta.com"),
  PPL_DIRECTORY_CLIENT_ID: z.string().min(1).optional(),
  PPL_DIRECTORY_CLIENT_SECRET: z.string().min(1).optional(),
  /** Packeta's REST endpoint for every Packeta profile: the operator's choice, never a partner's. */
  COURIER_PACKETA_URL: z.string().url().default("https://www.zasilkovna.cz/api/rest"),
  /** PPL's CPL API ("myapi2") for production profiles and the directory sync: the operator's, never a partner's. */
  COURIER_PPL_URL: z.string().url().default("https://api.dhl.com/ecs/ppl/myapi2"),
  /** PPL's test environment, for the profiles whose `environment` is `test`. */
  COURIER_PPL_TEST_URL: z.string().url().default("https://api-dev.dhl.com/ecs/ppl/myapi2"),
  /** The log's JSON lines are appended to this file instead of written to stdout. */
  LOG_FILE: z.string().optional(),
  /** pino's level; unset, `warn` under tests and `info` otherwise. */
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional(),
  /** How long a stopping web process gives the requests in flight once its worker has stopped (web-process.ts). */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(30_000),
  /** Tests: a migrated PGlite data directory (a tarball) the embedded database loads into memory, not DATA_DIR. */
  PGLITE_SNAPSHOT: z.string().optional(),
});

type Variables = z.infer<typeof schema>;

/**
 * Read when they are used, not once: a test points the couriers and the directory feeds at fakes it started, and
 * its log at a file, after the process (and `env()`) started; `npm run dev` starts its fakes beside the app.
 */
const READ_AT_USE = [
  "COURIER_PACKETA_URL",
  "COURIER_PPL_URL",
  "COURIER_PPL_TEST_URL",
  "PACKETA_API_KEY",
  "PACKETA_FEED_URL",
  "PPL_DIRECTORY_CLIENT_ID",
  "PPL_DIRECTORY_CLIENT_SECRET",
  "LOG_FILE",
  "LOG_LEVEL",
  "SHUTDOWN_TIMEOUT_MS",
  "PGLITE_SNAPSHOT",
] as const;
type ReadAtUse = (typeof READ_AT_USE)[number];

export type Env = Omit<Variables, ReadAtUse> & { AUTH_SECRET: string; SECRETS_KEY: string; PUBLIC_URL: string };

/** What production cannot run without (docs/production.md); the process refuses to start without them. */
const requiredInProduction = {
  PUBLIC_URL: "the platform's public origin, e.g. https://ship.example (absolute links and the cookie's Secure flag)",
  AUTH_SECRET: "32+ random characters, e.g. `openssl rand -base64 32`",
  SECRETS_KEY: "32 random bytes, base64: `openssl rand -base64 32`",
} as const;

let cached: Env | undefined;

/**
 * The environment, read and validated once. In development and test a missing AUTH_SECRET or SECRETS_KEY is
 * generated and kept in the data directory so sessions and tokens survive restarts, and PUBLIC_URL defaults to
 * http://localhost:<PORT>; production must set all three (`requiredInProduction`).
 */
export function env(): Env {
  if (cached) return cached;
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid environment: ${issues}`);
  }
  const value = parsed.data;
  if (value.NODE_ENV === "production" && process.env.NEXT_PHASE !== "phase-production-build") {
    const missing = (Object.keys(requiredInProduction) as (keyof typeof requiredInProduction)[]).filter(
      (name) => !value[name],
    );
    if (missing.length > 0)
      throw new Error(
        `Missing environment variables required in production: ${missing
          .map((name) => `${name} (${requiredInProduction[name]})`)
          .join("; ")}.`,
      );
  }
  cached = {
    ...value,
    AUTH_SECRET: value.AUTH_SECRET ?? devSecret(value.DATA_DIR),
    SECRETS_KEY:
      value.SECRETS_KEY ?? devSecret(value.DATA_DIR, "secrets-key", () => randomBytes(32).toString("base64")),
    PUBLIC_URL: value.PUBLIC_URL ?? `http://localhost:${value.PORT ?? 3000}`,
  };
  // next-auth reads its origin (redirects, callback URLs, the sign-out form's action) from NEXTAUTH_URL on every
  // request and falls back to http://localhost:3000, never to a request's Host. Set here, it is the platform's
  // however the process was started (`npm start`, `tsx scripts/serve.ts`, `next start`): any earlier value too.
  process.env.NEXTAUTH_URL = cached.PUBLIC_URL;
  return cached;
}

/**
 * The variables of READ_AT_USE (and NODE_ENV, for the logger, which must not depend on `env()`), each read and
 * validated by the schema above when its property is read. `env()` validates them at start-up as well.
 */
export const currentEnv = Object.defineProperties(
  {},
  Object.fromEntries(
    [...READ_AT_USE, "NODE_ENV" as const].map((name) => [name, { enumerable: true, get: () => readNow(name) }]),
  ),
) as Readonly<Pick<Variables, ReadAtUse | "NODE_ENV">>;

function readNow<K extends keyof Variables>(name: K): Variables[K] {
  const parsed = schema.shape[name].safeParse(process.env[name]);
  if (!parsed.success)
    throw new Error(`Invalid environment: ${name}: ${parsed.error.issues.map((i) => i.message).join("; ")}`);
  return parsed.data as Variables[K];
}

function devSecret(
  dataDir: string,
  name = "auth-secret",
  generate = () => randomBytes(32).toString("base64url"),
): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = generate();
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
