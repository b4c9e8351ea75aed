import { createServer, type AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { getDb } from "@/db/client";
import { signAccessToken } from "@/server/auth/access-tokens";
import { CLIENT_ADDRESS_HEADER } from "@/server/http/client-address";
import { createUser } from "@/server/services/accounts/create-user";

export type TestUser = { userId: string; accountId: string; email: string; password: string; token: string };

/** A new user in a new account (or joining `accountId`), with a fresh access token. */
export async function createTestUser(
  options: { staff?: boolean; accountId?: string; role?: "owner" | "member" } = {},
): Promise<TestUser> {
  const email = `u-${randomUUID()}@test.example`;
  const password = "correct horse battery";
  const db = await getDb();
  const { userId, accountId } = await createUser(db, {
    email,
    password,
    staff: options.staff ?? false,
    role: options.role,
    ...(options.accountId ? { accountId: options.accountId } : { accountName: `Account ${email}` }),
  });
  return { userId, accountId, email, password, token: await signAccessToken(userId, 0) };
}

type RouteHandler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

export type CallOptions = {
  method?: string;
  body?: unknown;
  /** A raw body, sent as is (for malformed JSON and size tests). */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
  params?: Record<string, string>;
  token?: string;
  apiKey?: string;
};

/**
 * A client address of its own for each call (198.18.0.0/15, the benchmarking range), as the app's server would set
 * it for a client of its own: per-address limits then count only what a test sends from one address on purpose.
 */
const testClientAddress = () =>
  `198.${18 + Math.floor(Math.random() * 2)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;

/**
 * Calls a route handler export with a real `Request`, as Next would behind the app's server (which always sets the
 * client's address: pass `x-sop-client-address` to choose it, or an empty one for a request without an address).
 */
export async function call(handler: unknown, path: string, options: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { [CLIENT_ADDRESS_HEADER]: testClientAddress(), ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.apiKey) headers["x-api-key"] = options.apiKey;
  let body: BodyInit | undefined;
  if (options.rawBody !== undefined) body = options.rawBody as BodyInit;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const request = new Request(`http://localhost${path}`, {
    method: options.method ?? (body ? "POST" : "GET"),
    headers,
    body,
  });
  return (handler as RouteHandler)(request, { params: Promise.resolve(options.params ?? {}) });
}

export async function readJson<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

/** A loopback port nothing listens on (it was free a moment ago): connections to it are refused. */
export async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Asks `probe` again until `done` holds for its answer or `timeoutMs` passes, and returns the last answer for the
 * test to assert on: for state that changes with time (tracking steps), with no guess at how fast the machine is.
 */
export async function pollUntil<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  { timeoutMs = 20_000, intervalMs = 50 } = {},
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value) || performance.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
