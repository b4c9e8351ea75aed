import { createHash } from "node:crypto";
import pLimit, { type LimitFunction } from "p-limit";

/**
 * At most `inFlight` calls at once per courier account (the contract: 8 per profile), process-wide, whichever
 * requests and jobs make them. Keyed by the account's credential, hashed, so no secret is kept as a map key.
 */
export function limiterPerCredential(inFlight: number): (credential: string) => LimitFunction {
  const limiters = new Map<string, LimitFunction>();
  return (credential) => {
    const key = createHash("sha256").update(credential).digest("hex");
    let limit = limiters.get(key);
    if (!limit) limiters.set(key, (limit = pLimit(inFlight)));
    return limit;
  };
}
