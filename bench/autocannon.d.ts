// Minimal typings for the parts of autocannon's programmatic API the benchmark uses (no @types package).
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  export type Request = {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
    onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
  };

  export type Options = {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    pipelining?: number;
    timeout?: number;
    /** How often (ms) it samples its counters, and checks whether the duration is over (default 1000). */
    sampleInt?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: Request[];
    setupClient?: (client: unknown) => void;
  };

  export type Histogram = {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p99: number;
  };

  export type Result = {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    resets: number;
    "2xx": number;
    statusCodeStats: Record<string, { count: number }>;
    latency: Histogram;
    requests: Histogram & { sent: number };
  };

  export type Instance = EventEmitter & PromiseLike<Result> & { stop: () => void };

  export default function autocannon(options: Options): Instance;
}
