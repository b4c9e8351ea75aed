import { isDatabaseUnavailable } from "@/db/connection-errors";

export type StartRetryOptions = {
  /** Starts tried in all; the last one's error is thrown. */
  attempts: number;
  delayMs: number;
  log: (message: string, error?: unknown) => void;
};

/** An error, or any error in its `cause` chain, that says the database went away (a wrapper may hide it). */
function databaseWentAway(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++)
    if (isDatabaseUnavailable(e)) return true;
  return false;
}

/**
 * Runs a process's start-up (migrations, pg-boss's start) again when the database went away in the middle of it:
 * a backend terminated by an operator or a failover, PostgreSQL restarting. Without it the start-up's rejection
 * is the top-level await's, and the process dies with an uncaught CONNECTION_CLOSED, however briefly the database
 * was away. Each start must be safe to repeat: migrations take an
 * advisory lock and skip what is applied, pg-boss's start and createQueue are idempotent. Any other error (a bad
 * migration, a wrong password) is thrown at once; the retries are bounded so a database that stays away still
 * ends the process, for its supervisor to see.
 */
export async function startWithRetry<T>(what: string, start: () => Promise<T>, options: StartRetryOptions): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (error) {
      if (attempt >= options.attempts || !databaseWentAway(error)) throw error;
      options.log(
        `${what}: the database connection closed while starting (attempt ${attempt} of ${options.attempts}); retrying in ${options.delayMs} ms`,
        error,
      );
      await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    }
  }
}
