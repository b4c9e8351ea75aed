/**
 * Where the e2e run lives: one fresh PostgreSQL database per run and one production server on port 3100.
 * The Playwright runner evaluates this first and sets process.env; the web server and the test workers
 * it starts inherit the same values, so all of them use the same database.
 */
// E2E_PORT lets two checkouts run their suites side by side on one machine.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_BASE_URL = `http://localhost:${E2E_PORT}`;

/**
 * The fake Packeta the e2e set-up starts (`server/couriers/packeta/fake-server-main.ts`, a webServer of
 * playwright.config.ts) and the API password it accepts: a Packeta profile with this password works.
 */
export const E2E_PACKETA_PORT = Number(process.env.E2E_PACKETA_PORT ?? 4598);
export const E2E_PACKETA_URL = `http://127.0.0.1:${E2E_PACKETA_PORT}/api/rest`;
export const E2E_PACKETA_PASSWORD = "e2e0packeta0api0password00000001";

/** A loopback address the e2e server trusts as a proxy of the operator's (TRUSTED_PROXIES). */
export const E2E_TRUSTED_PROXY = "127.0.0.2";

// Fixed so sessions signed by the server can be reasoned about in a failing run; never used outside e2e.
const E2E_AUTH_SECRET = "e2e-secret-e2e-secret-e2e-secret-0123456789";

/** The bearer token /api/metrics asks for (request-limits.spec.ts reads the metrics' series). */
export const E2E_METRICS_TOKEN = "e2e-metrics-token-0123456789abcdef";

/** The database of e2e/shutdown.spec.ts's own server (so no other server's worker takes its delivery). */
export const stopDatabaseName = () => `${process.env.E2E_DATABASE_NAME}_stop`;

export function e2eEnvironment() {
  const server = new URL(process.env.E2E_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test");
  process.env.E2E_DATABASE_NAME ??= `sop_e2e_${Date.now()}`;
  const database = new URL(server);
  database.pathname = `/${process.env.E2E_DATABASE_NAME}`;
  Object.assign(process.env, {
    DATABASE_URL: database.toString(),
    AUTH_SECRET: E2E_AUTH_SECRET,
    SECRETS_KEY: "ZTJlLXNlY3JldHMta2V5LTMyLWJ5dGVzLWxvbmchISE=",
    PUBLIC_URL: E2E_BASE_URL,
    NEXTAUTH_URL: E2E_BASE_URL,
    METRICS_TOKEN: E2E_METRICS_TOKEN,
    PORT: String(E2E_PORT),
    // client-address.spec.ts sends as a proxy of the operator's from this address (every other spec from 127.0.0.1).
    TRUSTED_PROXIES: E2E_TRUSTED_PROXY,
    // The specs' webhook receivers listen on 127.0.0.1.
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    // The fixtures' keys allow 100,000 a minute; the account ceiling has its own tests (server/http/rate-limits.test.ts).
    ACCOUNT_RATE_LIMIT_PER_MINUTE: "10000000",
    // The app calls the fake Packeta, never the real one.
    COURIER_PACKETA_URL: E2E_PACKETA_URL,
    // A line per request would bury Playwright's own report; warnings and errors still show.
    LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
  });
  return { serverUrl: server.toString(), databaseName: process.env.E2E_DATABASE_NAME };
}
