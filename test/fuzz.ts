import fc from "fast-check";

/**
 * Building blocks of the property-based fuzz suites: nasty values, mutations of a valid body and the ways a
 * body travels. The checks their answers must pass live in `expect-answers.ts`, `account-digest.ts`.
 */

/** Strings that have broken parsers, databases, number conversions and templates before. */
export const NASTY_STRINGS = [
  "",
  " ",
  "\t\n",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x\udfffy",
  "\uffff",
  "\ufeffBOM",
  "💥",
  "👩‍👩‍👧‍👦",
  "\u202eevil",
  "Ω̸̢̛̗",
  "NaN",
  "-NaN",
  "Infinity",
  "-Infinity",
  "1e309",
  "-0",
  "0x10",
  "1,5",
  "1.5",
  "31.5",
  "null",
  "undefined",
  "true",
  "[]",
  "{}",
  '{"a":',
  "<script>alert(1)</script>",
  "'; drop table shipping_orders; --",
  "\\",
  '"',
  "%00",
  "%",
  "%E0%A4%A",
  "../../etc/passwd",
  "${7*7}",
  "__proto__",
  "constructor",
  "toString",
  "api",
  "default",
  "sandbox",
  "SBX0000000001",
  "00000000-0000-0000-0000-000000000000",
  "ffffffff-ffff-ffff-ffff-ffffffffffff",
  "not-a-uuid",
  "2024-02-30T00:00:00",
  "+420777123456",
  "a@b",
] as const;

export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary-ascii", maxLength: 40 }) },
);

export const nastyNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    -1,
    1,
    0.001,
    0.005,
    31.5,
    31.500001,
    100.005,
    999_999.995,
    1e15,
    1e21,
    1e-320,
    1e308,
    -1e308,
    2 ** 53 + 1,
    100_001,
    2 ** 31,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Strings past every limit of the contract, up to well past the 1 MiB body limit. */
export const hugeString: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(65, 101, 301, 5_000, 200_000, 1_100_000), fc.constantFrom("x", "é", "😀", "\u0000"))
  .map(([n, c]) => c.repeat(n));

export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: nastyString },
  { weight: 3, arbitrary: nastyNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constantFrom(null, [], {}, [[]], [{}], { "": null }) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3, stringUnit: "binary" }) },
  { weight: 1, arbitrary: fc.array(nastyString, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(nastyString, nastyString, { maxKeys: 3 }) },
);

export type Path = readonly (string | number)[];

export type Mutation =
  | { kind: "drop"; path: Path }
  | { kind: "replace"; path: Path; value: unknown }
  | { kind: "retype"; path: Path }
  | { kind: "huge"; path: Path; value: string }
  | { kind: "rename"; path: Path; casing: "lower" | "upper" | "camel" | "spaced" | "duplicate" }
  | { kind: "nest"; path: Path; value: unknown }
  | { kind: "extra"; path: Path; key: string; value: unknown };

/** Mutations of the fields at `paths` (and of the objects holding them). */
export function mutation(paths: readonly Path[]): fc.Arbitrary<Mutation> {
  const path = fc.constantFrom(...paths);
  return fc.oneof(
    fc.record({ kind: fc.constant("drop" as const), path }),
    fc.record({ kind: fc.constant("replace" as const), path, value: nastyValue }),
    fc.record({ kind: fc.constant("retype" as const), path }),
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("huge" as const), path, value: hugeString }) },
    fc.record({
      kind: fc.constant("rename" as const),
      path,
      casing: fc.constantFrom(
        "lower" as const,
        "upper" as const,
        "camel" as const,
        "spaced" as const,
        "duplicate" as const,
      ),
    }),
    fc.record({ kind: fc.constant("nest" as const), path, value: nastyValue }),
    fc.record({ kind: fc.constant("extra" as const), path, key: nastyString, value: nastyValue }),
  );
}

type Container = Record<string, unknown> | unknown[];

const isContainer = (v: unknown): v is Container => typeof v === "object" && v !== null;

/** The thing a value becomes when a client gets its type wrong. */
function retyped(value: unknown): unknown {
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return value.trim() !== "" && !Number.isNaN(Number(value)) ? Number(value) : [value];
  if (typeof value === "boolean") return value ? "true" : 0;
  if (value === null) return "null";
  if (Array.isArray(value)) return Object.fromEntries(value.map((v, i) => [String(i), v]));
  if (isContainer(value)) return [value];
  return null;
}

function renamed(key: string, casing: Extract<Mutation, { kind: "rename" }>["casing"]): string {
  switch (casing) {
    case "lower":
      return key.toLowerCase();
    case "upper":
      return key.toUpperCase();
    case "camel":
      return key.charAt(0).toLowerCase() + key.slice(1);
    case "spaced":
      return ` ${key}`;
    case "duplicate":
      return key.toLowerCase();
  }
}

/** Applies a mutation to a deep copy of `root`; a path that no longer exists leaves it as it is. */
export function mutate(root: unknown, m: Mutation): unknown {
  const copy: unknown = structuredClone(root);
  if (m.path.length === 0) {
    if (m.kind === "replace" || m.kind === "huge") return m.value;
    if (m.kind === "retype") return retyped(copy);
    if (m.kind === "nest") return { deep: { deeper: [m.value, copy] } };
    if (m.kind === "drop") return undefined;
  }
  let parent: unknown = copy;
  for (const step of m.path.slice(0, -1)) {
    if (!isContainer(parent)) return copy;
    parent = (parent as Record<string | number, unknown>)[step];
  }
  if (!isContainer(parent)) return copy;
  const holder = parent as Record<string | number, unknown>;
  const key = m.path[m.path.length - 1];
  if (key === undefined) {
    if (m.kind === "extra") (holder as Record<string, unknown>)[m.key] = m.value;
    return copy;
  }
  if (!(key in holder) && m.kind !== "replace" && m.kind !== "extra") return copy;
  switch (m.kind) {
    case "drop":
      if (Array.isArray(holder) && typeof key === "number") holder.splice(key, 1);
      else delete holder[key];
      break;
    case "replace":
    case "huge":
      holder[key] = m.value;
      break;
    case "retype":
      holder[key] = retyped(holder[key]);
      break;
    case "nest":
      holder[key] = { deep: { deeper: [m.value, { value: holder[key] }] } };
      break;
    case "extra": {
      const target = holder[key];
      if (isContainer(target) && !Array.isArray(target)) target[m.key] = m.value;
      break;
    }
    case "rename":
      if (typeof key === "string" && !Array.isArray(holder)) {
        const value = holder[key];
        if (m.casing !== "duplicate") delete holder[key];
        holder[renamed(key, m.casing)] = m.casing === "duplicate" ? retyped(value) : value;
      }
      break;
  }
  return copy;
}

/** A valid value, then 0..`max` mutations of it. */
export function mutated<T>(valid: fc.Arbitrary<T>, paths: readonly Path[], max = 3): fc.Arbitrary<unknown> {
  return fc
    .tuple(valid, fc.array(mutation(paths), { minLength: 0, maxLength: max }))
    .map(([value, mutations]) => mutations.reduce<unknown>((v, m) => mutate(v, m), value));
}

/** How a body travels: mostly JSON of the value, sometimes broken JSON, an empty body or a lie about the size. */
export type Wire = { raw: string; contentType: string | null };

export function wire(value: fc.Arbitrary<unknown>, contentTypes: fc.Arbitrary<string | null>): fc.Arbitrary<Wire> {
  return fc.tuple(value, contentTypes, fc.nat({ max: 99 }), nastyString).map(([v, contentType, dice, junk]) => {
    const json = JSON.stringify(v) ?? "";
    if (dice < 2) return { raw: deeplyNested(dice === 0 ? 200_000 : 5_000, json), contentType };
    if (dice < 4) return { raw: json.slice(0, Math.max(0, json.length - 1 - (dice % 3))), contentType };
    if (dice < 6) return { raw: junk, contentType };
    if (dice < 7) return { raw: "", contentType };
    return { raw: json, contentType };
  });
}

/** Valid JSON nested `depth` levels deep (arrays and objects), around `inner`. */
function deeplyNested(depth: number, inner: string): string {
  const half = Math.floor(depth / 2);
  return `${"[".repeat(half)}${'{"a":'.repeat(half)}${inner || "1"}${"}".repeat(half)}${"]".repeat(half)}`;
}

export const headersOf = (w: Wire): Record<string, string> =>
  w.contentType === null ? {} : { "content-type": w.contentType };

/** FUZZ_SCALE=10 runs ten times the cases (a nightly job, a bug hunt); `npm test` runs the counts as written. */
export const runs = (n: number): number => Math.max(1, Math.round(n * Number(process.env.FUZZ_SCALE ?? 1)));

/** A fuzz property's time limit: generous for a loaded 2-core CI runner, and growing with FUZZ_SCALE. */
export const fuzzTimeout = (cases: number): number => 60_000 + cases * 200;

/** What the request looked like, for a failure message a person can replay. */
export function describeRequest(method: string, path: string, w?: Wire): string {
  if (!w) return `${method} ${path}`;
  const shown = w.raw.length > 600 ? `${w.raw.slice(0, 600)}… (${w.raw.length} chars)` : w.raw;
  return `${method} ${path} content-type=${JSON.stringify(w.contentType)} body=${JSON.stringify(shown)}`;
}
