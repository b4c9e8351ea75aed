import pino from "pino";
import { currentEnv } from "@/server/env";
import { currentRequest } from "./request-context";

/**
 * Everything that must never reach a log line, wherever it sits in a logged object: passwords, API keys, access
 * tokens, webhook signing secrets, courier credentials and the headers that carry them. Configured once, here;
 * `logger.test.ts` greps the log of a full flow for every secret it used.
 */
export const REDACTED_PATHS = [
  "password",
  "apiPassword",
  "clientSecret",
  "secret",
  "token",
  "accessToken",
  "access_token",
  "key",
  "apiKey",
  "authorization",
  "cookie",
  "*.password",
  "*.apiPassword",
  "*.clientSecret",
  "*.secret",
  "*.token",
  "*.accessToken",
  "*.access_token",
  "*.key",
  "*.apiKey",
  "*.authorization",
  "*.cookie",
  '*["x-api-key"]',
  "*.*.password",
  "*.*.apiPassword",
  "*.*.clientSecret",
  "*.*.secret",
  "*.*.authorization",
  '*.*["x-api-key"]',
];

function createLogger() {
  const destination = pino.destination({ dest: currentEnv.LOG_FILE || 1, sync: true });
  return pino(
    {
      level: currentEnv.LOG_LEVEL ?? (currentEnv.NODE_ENV === "test" ? "warn" : "info"),
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
      // The request (or the job's originating request) every line belongs to, from AsyncLocalStorage.
      mixin() {
        const context = currentRequest();
        return context ? { requestId: context.requestId, accountId: context.accountId, userId: context.userId } : {};
      },
    },
    destination,
  );
}

const holder = globalThis as unknown as { __sopLogger?: pino.Logger };

const instance = (): pino.Logger => (holder.__sopLogger ??= createLogger());

/**
 * The process's one logger: JSON lines on stdout, or appended to LOG_FILE (`npm run dev` pipes stdout through
 * pino-pretty). Made on first use, so LOG_LEVEL and LOG_FILE are read after a test or script has set them.
 */
export const logger: pino.Logger = new Proxy({} as pino.Logger, {
  get(_, property) {
    const target = instance();
    const value = Reflect.get(target, property, target) as unknown;
    return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
  },
});
