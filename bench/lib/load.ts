import autocannon, { type Request } from "autocannon";

export type LoadResult = {
  name: string;
  target: string;
  connections: number;
  seconds: number;
  requests: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  errors: number;
  non2xx: number;
  /** 2xx answers whose body says something failed (e.g. create's `failed` not empty). */
  bad: number;
  statusCodes: Record<string, number>;
  /** CPU ms per answered request of the server process and of the PostgreSQL backends of the bench database. */
  serverCpuPerRequest?: number;
  pgCpuPerRequest?: number;
  /** Peak VmRSS of the app server during the run (MiB), when sampled. */
  rssMax?: number;
};

export type LoadOptions = {
  name: string;
  target: string;
  url: string;
  connections: number;
  duration: number;
  requests: Request[];
  headers?: Record<string, string>;
  /** Called with each 2xx body; return false to count the answer as bad. Bodies are only read when given. */
  check?: (body: string) => boolean;
};

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

/** One autocannon run; latency percentiles are computed from every response's own hrtime duration (µs precision). */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  let bad = 0;
  const check = options.check;
  const requests = check
    ? options.requests.map((r) => ({
        ...r,
        onResponse: (status: number, body: string) => {
          if (status >= 200 && status < 300 && !check(body)) bad++;
        },
      }))
    : options.requests;
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.duration,
    headers: options.headers,
    requests,
    timeout: 30,
    // autocannon stops only on a sample tick (1 s by default): a sub-second run (quick mode) would run a whole second.
    ...(options.duration < 1 ? { sampleInt: options.duration * 1000 } : {}),
  });
  instance.on("response", (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
    latencies.push(responseTime);
  });
  const result = await instance;
  latencies.sort((a, b) => a - b);
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count]));
  return {
    name: options.name,
    target: options.target,
    connections: options.connections,
    seconds: result.duration,
    requests: latencies.length,
    rps: latencies.length / result.duration,
    p50: percentile(latencies, 50),
    p90: percentile(latencies, 90),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? NaN,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    bad,
    statusCodes,
  };
}

export const median = (values: number[]): number => {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
