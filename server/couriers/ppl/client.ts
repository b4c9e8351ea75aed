import { createHash } from "node:crypto";
import { currentEnv } from "@/server/env";
import { CourierError, requestMayHaveArrived } from "../adapter";
import { courierExchange } from "../http";
import type { PplSettings } from "./settings";

/**
 * HTTP for PPL's CPL API ("myapi2"): the OAuth client-credentials token, its cache, bearer calls with one retry on a
 * 401, and PPL's answers as errors. Nothing here knows orders; `mapping.ts` does.
 */

/** PPL's base URL for the profile, chosen by the operator (never a partner): read at call time. */
export function pplBaseUrl(settings: Pick<PplSettings, "environment">): string {
  const url = settings.environment === "test" ? currentEnv.COURIER_PPL_TEST_URL : currentEnv.COURIER_PPL_URL;
  return url.replace(/\/+$/, "");
}

/** A token is used until this long before PPL says it expires (PPL issues them for about 30 minutes). */
export const TOKEN_MARGIN_MS = 60_000;

/** PPL's problem+json (`EpsApiInfrastructureWebApiModelProblemJsonModel`). */
export type PplProblemBody = {
  type?: string | null;
  title?: string | null;
  status?: number | null;
  detail?: string | null;
  instance?: string | null;
  errors?: Record<string, string[]> | null;
};

/** A 4xx answer of the API other than 401/403: PPL's refusal, with the fields it names (`errors`). */
export class PplProblem extends Error {
  constructor(
    readonly status: number,
    readonly body: PplProblemBody,
  ) {
    super(problemText(body) || `PPL answered HTTP ${status}.`);
    this.name = "PplProblem";
  }
}

/** The courier's own words of a problem: its field errors (`path: message`), else its detail, else its title. */
export function problemText(body: PplProblemBody, only?: (path: string) => boolean): string {
  const errors = Object.entries(body.errors ?? {})
    .filter(([path]) => !only || only(path))
    .flatMap(([path, messages]) => (messages ?? []).map((m) => `${path}: ${m}`));
  if (errors.length > 0) return errors.join("; ");
  return [body.title, body.detail].filter((t): t is string => typeof t === "string" && t.trim() !== "").join(" ");
}

export type PplRequest = {
  method: "GET" | "POST" | "PUT";
  /** Below the base URL, starting with `/`, e.g. `/shipment/batch`. */
  path: string;
  /** Repeated keys for arrays (`ShipmentNumbers=a&ShipmentNumbers=b`), as PPL's generated client sends them. */
  query?: Record<string, string | number | readonly string[]>;
  json?: unknown;
  /**
   * Instead of `path`: a URL PPL named in an answer (a parcel's `labelUrl`). It must be on the API's own origin: the
   * bearer token is never sent anywhere else.
   */
  absoluteUrl?: string;
  /** The Accept header (default `application/json`; files ask for anything). */
  accept?: string;
};

export type PplResponse = { status: number; headers: Headers; body: Uint8Array };

export const textOf = (response: PplResponse): string => new TextDecoder().decode(response.body);

export function jsonOf<T>(response: PplResponse): T {
  try {
    return JSON.parse(textOf(response)) as T;
  } catch {
    throw new CourierError("COURIER_UNAVAILABLE", "PPL answered something that is not JSON.");
  }
}

type Token = { accessToken: string; expiresAt: number };

// The cache key holds a hash of the secret, never the secret: a heap dump or a debug print of the map shows no secret.
const tokens = new Map<string, Token>();
const pendingTokens = new Map<string, Promise<Token>>();
const tokenKey = (base: string, settings: PplSettings): string =>
  `${base}\n${settings.clientId}\n${createHash("sha256").update(settings.clientSecret).digest("hex")}`;

/** Forgets every cached token (tests). */
export const clearPplTokens = (): void => tokens.clear();

const timeoutError = () => new CourierError("COURIER_TIMEOUT", "PPL did not answer in time.");

/** `promise`, or a COURIER_TIMEOUT as soon as `signal` aborts (a shared promise may run under another call's signal). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(timeoutError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(timeoutError());
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * One HTTP exchange (API calls and the token request): no redirect followed, the body read whole up to 10 MiB; no
 * answer in time → COURIER_TIMEOUT, no answer at all, a redirect or a larger answer → COURIER_UNAVAILABLE.
 */
async function exchange(url: string, init: RequestInit, signal: AbortSignal): Promise<PplResponse> {
  try {
    return await courierExchange("PPL", url, init, signal);
  } catch (error) {
    // Aborted at the timeout (fetch rejects with the abort's reason, callCourier's own COURIER_TIMEOUT): the cause
    // says it may have arrived (callPpl).
    if (signal.aborted && error instanceof CourierError)
      throw new CourierError(error.code, error.message, null, { cause: error });
    // A redirect or an oversized answer (courierExchange): PPL answered; its cause is unset (known outcome).
    if (error instanceof CourierError) throw error;
    // The cause tells a request that may have arrived (a timeout, a cut connection) from one never sent (callPpl).
    if (signal.aborted)
      throw new CourierError("COURIER_TIMEOUT", "PPL did not answer in time.", null, { cause: error });
    throw new CourierError("COURIER_UNAVAILABLE", `PPL could not be reached (${(error as Error).name}).`, null, {
      cause: error,
    });
  }
}

/** `POST {base}/login/getAccessToken` with the client credentials (form-urlencoded). */
async function requestToken(base: string, settings: PplSettings, signal: AbortSignal): Promise<Token> {
  const form = new URLSearchParams({
    grant_type: "client_credentials",
    client_id: settings.clientId,
    client_secret: settings.clientSecret,
    scope: "myapi2",
  });
  const response = await exchange(
    `${base}/login/getAccessToken`,
    {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: form.toString(),
    },
    signal,
  );
  if (response.status === 400 || response.status === 401)
    throw new CourierError("COURIER_AUTH_FAILED", "PPL refused the client credentials.");
  if (response.status !== 200)
    throw new CourierError("COURIER_UNAVAILABLE", `PPL's token endpoint answered HTTP ${response.status}.`);
  const body = jsonOf<{ access_token?: unknown; expires_in?: unknown }>(response);
  if (typeof body.access_token !== "string" || body.access_token === "")
    throw new CourierError("COURIER_UNAVAILABLE", "PPL's token endpoint answered no access token.");
  const expiresIn = typeof body.expires_in === "number" && body.expires_in > 0 ? body.expires_in : 1800;
  return { accessToken: body.access_token, expiresAt: Date.now() + expiresIn * 1000 - TOKEN_MARGIN_MS };
}

/**
 * The profile's access token: cached per (base URL, client id, secret hash) until `TOKEN_MARGIN_MS` before it expires,
 * and fetched once for all calls (and credentials checks) that need it at the same time (PPL allows 12 token requests
 * a minute).
 */
export async function pplAccessToken(settings: PplSettings, signal: AbortSignal): Promise<string> {
  const base = pplBaseUrl(settings);
  const key = tokenKey(base, settings);
  // A shared request runs under the signal of the call that started it: if that call's time runs out first, the
  // others (still in time) start their own request instead of failing with it.
  for (let attempt = 0; ; attempt++) {
    const cached = tokens.get(key);
    if (cached && cached.expiresAt > Date.now()) return cached.accessToken;
    let pending = pendingTokens.get(key);
    const shared = pending !== undefined;
    if (!pending) {
      pending = requestToken(base, settings, signal).finally(() => pendingTokens.delete(key));
      pendingTokens.set(key, pending);
    }
    try {
      const token = await untilAborted(pending, signal);
      tokens.set(key, token);
      return token.accessToken;
    } catch (error) {
      const othersTimeout = error instanceof CourierError && error.code === "COURIER_TIMEOUT" && !signal.aborted;
      if (!(shared && othersTimeout && attempt < 2)) throw error;
    }
  }
}

/** Drops the cached token if it is still the one PPL refused (another call may have refreshed it already). */
function forgetToken(settings: PplSettings, accessToken: string): void {
  const key = tokenKey(pplBaseUrl(settings), settings);
  if (tokens.get(key)?.accessToken === accessToken) tokens.delete(key);
}

function urlOf(base: string, request: PplRequest): string {
  if (request.absoluteUrl !== undefined) {
    let url: URL;
    try {
      url = new URL(request.absoluteUrl);
    } catch {
      throw new CourierError("COURIER_UNAVAILABLE", "PPL named a URL that is not one.");
    }
    if (url.origin !== new URL(base).origin)
      throw new CourierError("COURIER_UNAVAILABLE", "PPL named a URL outside its API; the token is not sent there.");
    for (const [name, value] of Object.entries(request.query ?? {}))
      if (Array.isArray(value)) for (const v of value as readonly string[]) url.searchParams.append(name, v);
      else url.searchParams.append(name, String(value));
    return url.toString();
  }
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query ?? {})) {
    if (Array.isArray(value)) for (const v of value as readonly string[]) params.append(name, v);
    else params.append(name, String(value));
  }
  const query = params.toString();
  return `${base}${request.path}${query ? `?${query}` : ""}`;
}

function problemOf(response: PplResponse): PplProblemBody {
  try {
    const parsed = JSON.parse(textOf(response)) as unknown;
    return parsed && typeof parsed === "object" ? (parsed as PplProblemBody) : {};
  } catch {
    return {};
  }
}

/**
 * One authenticated call of the API. A 401 fetches a new token once and repeats the call once; a second 401 or a
 * 403 is COURIER_AUTH_FAILED; 5xx (and any other unexpected status) is COURIER_UNAVAILABLE; other 4xx throw
 * `PplProblem` for the operation to judge (a refusal of the order, of a cancel, …). Neither the secret nor the token
 * is ever part of an error message.
 */
export async function callPpl(settings: PplSettings, signal: AbortSignal, request: PplRequest): Promise<PplResponse> {
  if (signal.aborted) throw timeoutError();
  const url = urlOf(pplBaseUrl(settings), request);
  const send = (accessToken: string) =>
    exchange(
      url,
      {
        method: request.method,
        headers: {
          authorization: `Bearer ${accessToken}`,
          accept: request.accept ?? "application/json",
          ...(request.json === undefined ? {} : { "content-type": "application/json" }),
        },
        body: request.json === undefined ? undefined : JSON.stringify(request.json),
      },
      signal,
    ).catch((error: unknown) => {
      // The call itself (not its token) went unanswered after it may have reached PPL: `outcomeUnknown`.
      throw error instanceof CourierError && error.cause !== undefined && requestMayHaveArrived(error.cause)
        ? error.unknownOutcome()
        : error;
    });
  let accessToken = await pplAccessToken(settings, signal);
  let response = await send(accessToken);
  if (response.status === 401) {
    forgetToken(settings, accessToken);
    accessToken = await pplAccessToken(settings, signal);
    response = await send(accessToken);
    if (response.status === 401) throw new CourierError("COURIER_AUTH_FAILED", "PPL refused the access token.");
  }
  if (response.status === 403)
    throw new CourierError("COURIER_AUTH_FAILED", "PPL refused these credentials access to the call (HTTP 403).");
  if (response.status >= 200 && response.status < 300) return response;
  if (response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429)
    throw new PplProblem(response.status, problemOf(response));
  throw new CourierError("COURIER_UNAVAILABLE", `PPL answered HTTP ${response.status}.`);
}
