/**
 * A seeded random stream (mulberry32). The invariant suite's only source of randomness (FoundationDB-style simulation: one seed decides the workload and the
 * fault schedule, so a failing seed is rerun with INVARIANTS_SEED). Timing on a real machine still varies, so a
 * seed reproduces the schedule, not every interleaving. The synthetic pickup-point directory uses it too.
 */
export type Random = {
  seed: number;
  /** A float in [0, 1). */
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
  /** An independent stream (e.g. one per tenant), so adding a draw in one module does not shift the others. */
  fork(label: string): Random;
};

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** mulberry32: small, fast, good enough for schedules. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    seed,
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)]!,
    chance: (p) => next() < p,
    fork: (label) => createRandom((seed ^ hash(label)) >>> 0),
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it holds or the deadline passes (never a fixed sleep standing in for a condition). */
export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, stepMs = 200) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await sleep(stepMs);
  }
}
