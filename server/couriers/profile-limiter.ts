import { createHash } from "node:crypto";
import pLimit, { type LimitFunction } from "p-limit";

/** Runs `fn` once one of its credential's places is free. */
export type CredentialLimit = <T>(fn: () => PromiseLike<T> | T) => Promise<T>;

export type LimiterPerCredential = ((credential: string) => CredentialLimit) & {
  /** Credentials with calls in flight or waiting now (an idle one holds no entry). */
  readonly size: number;
};

/**
 * At most `inFlight` calls at once per courier account (the contract: 8 per profile), process-wide, whichever
 * requests and jobs make them. Keyed by the account's credential, hashed, so no secret is kept as a map key.
 * A credential's entry lives only while it has calls in flight or waiting: the last one to finish removes it, so
 * the map holds the credentials in use now, not every one ever seen (profiles come and go, passwords change).
 * The entry is looked up when a call starts, never held across one, so no two limiters ever serve one credential.
 */
export function limiterPerCredential(inFlight: number): LimiterPerCredential {
  // `calls`: calls of the credential in flight or waiting, counted here rather than read from p-limit's counters,
  // whose updates are not ordered with the caller's `finally`.
  const limiters = new Map<string, { limit: LimitFunction; calls: number }>();
  const limiterOf = (credential: string): CredentialLimit => {
    const key = createHash("sha256").update(credential).digest("hex");
    return (fn) => {
      let entry = limiters.get(key);
      if (!entry) limiters.set(key, (entry = { limit: pLimit(inFlight), calls: 0 }));
      const current = entry;
      current.calls++;
      return current.limit(fn).finally(() => {
        if (--current.calls === 0) limiters.delete(key);
      });
    };
  };
  return Object.defineProperty(limiterOf, "size", { get: () => limiters.size }) as LimiterPerCredential;
}
