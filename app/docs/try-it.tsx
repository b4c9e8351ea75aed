"use client";

import { useState, useSyncExternalStore } from "react";

export type TryItParameter = { name: string; in: "path" | "query" | "header"; required: boolean; example: string };
export type TryItBody = { mediaType: string; example: string };
export type TryItAuth = "apiKey" | "accessToken" | "none";

type Answer = {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: string;
  pdfUrl?: string;
  ms: number;
};

const SHOWN_HEADERS = [
  "content-type",
  "www-authenticate",
  "retry-after",
  "ratelimit-limit",
  "ratelimit-remaining",
  "ratelimit-reset",
  "content-disposition",
];

/**
 * The credentials typed into "Try it", in this page's memory only: shared by every operation on the page, gone when
 * the tab closes or reloads. Never in localStorage (or sessionStorage), where any script of this origin, an
 * extension or the next person at the computer could read an API key long after.
 */
const credentials = new Map<Exclude<TryItAuth, "none">, string>();
const listeners = new Set<() => void>();

function subscribe(onChange: () => void): () => void {
  listeners.add(onChange);
  return () => listeners.delete(onChange);
}

function useSavedCredential(auth: TryItAuth): [string, (value: string) => void] {
  const value = useSyncExternalStore(
    subscribe,
    () => (auth === "none" ? "" : (credentials.get(auth) ?? "")),
    () => "",
  );
  const save = (next: string) => {
    if (auth === "none") return;
    credentials.set(auth, next);
    for (const listener of listeners) listener();
  };
  return [value, save];
}

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

const inputClass =
  "w-full rounded border border-slate-300 bg-white px-2 py-1 font-mono text-xs focus:border-blue-500 focus:outline-none";

/** Sends the operation to this server from the browser and shows the answer. */
export function TryIt({
  method,
  path,
  auth,
  parameters,
  bodies,
}: {
  method: string;
  path: string;
  auth: TryItAuth;
  parameters: TryItParameter[];
  bodies: TryItBody[];
}) {
  const [credential, saveCredential] = useSavedCredential(auth);
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(parameters.map((p) => [p.name, p.in === "path" ? p.example : ""])),
  );
  const [mediaType, setMediaType] = useState(bodies[0]?.mediaType ?? "");
  const [body, setBody] = useState(bodies[0]?.example ?? "");
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function send() {
    setBusy(true);
    setError(null);
    const started = performance.now();
    try {
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ""));
      const query = new URLSearchParams();
      for (const p of parameters) if (p.in === "query" && values[p.name]) query.append(p.name, values[p.name]!);
      const headers: Record<string, string> = {};
      for (const p of parameters) if (p.in === "header" && values[p.name]) headers[p.name] = values[p.name]!;
      if (credential && auth !== "none") headers.authorization = `Bearer ${credential}`;
      if (bodies.length > 0) headers["content-type"] = mediaType;
      const response = await fetch(query.size > 0 ? `${url}?${query}` : url, {
        method: method.toUpperCase(),
        headers,
        body: bodies.length > 0 ? body : undefined,
      });
      const type = response.headers.get("content-type") ?? "";
      const shown = [...response.headers].filter(([name]) => SHOWN_HEADERS.includes(name));
      const ms = Math.round(performance.now() - started);
      if (type.startsWith("application/pdf")) {
        const blob = await response.blob();
        setAnswer({
          status: response.status,
          statusText: response.statusText,
          headers: shown,
          body: `PDF, ${blob.size} bytes`,
          pdfUrl: URL.createObjectURL(blob),
          ms,
        });
      } else {
        setAnswer({
          status: response.status,
          statusText: response.statusText,
          headers: shown,
          body: pretty(await response.text()),
          ms,
        });
      }
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  const pickBody = (type: string) => {
    setMediaType(type);
    setBody(bodies.find((b) => b.mediaType === type)?.example ?? body);
  };

  return (
    <div className="space-y-3 text-sm">
      {auth !== "none" && (
        <label className="block">
          <span className="text-xs font-medium text-slate-600">
            {auth === "apiKey"
              ? "API key (sent as Authorization: Bearer)"
              : "Access token (from POST /api/v2/auth/token)"}
          </span>
          <input
            className={inputClass}
            type="password"
            value={credential}
            onChange={(e) => saveCredential(e.target.value)}
            placeholder={auth === "apiKey" ? "svc_…" : "eyJ…"}
            autoComplete="off"
          />
        </label>
      )}
      {parameters.length > 0 && (
        <div className="grid gap-2 sm:grid-cols-2">
          {parameters.map((p) => (
            <label key={p.name} className="block">
              <span className="text-xs font-medium text-slate-600">
                {p.name}{" "}
                <span className="font-normal text-slate-500">
                  ({p.in}
                  {p.required ? ", required" : ""})
                </span>
              </span>
              <input
                className={inputClass}
                value={values[p.name] ?? ""}
                placeholder={p.example}
                onChange={(e) => setValues({ ...values, [p.name]: e.target.value })}
              />
            </label>
          ))}
        </div>
      )}
      {bodies.length > 0 && (
        <div>
          <div className="mb-1 flex items-center gap-2">
            <span className="text-xs font-medium text-slate-600">Body</span>
            <select
              className="rounded border border-slate-300 bg-white px-1 py-0.5 font-mono text-xs"
              value={mediaType}
              onChange={(e) => pickBody(e.target.value)}
            >
              {bodies.map((b) => (
                <option key={b.mediaType}>{b.mediaType}</option>
              ))}
            </select>
          </div>
          <textarea
            className={`${inputClass} h-48`}
            value={body}
            onChange={(e) => setBody(e.target.value)}
            spellCheck={false}
          />
        </div>
      )}
      <button
        type="button"
        onClick={send}
        disabled={busy}
        className="rounded bg-blue-600 px-3 py-1.5 text-xs font-semibold text-white hover:bg-blue-700 disabled:opacity-50"
      >
        {busy ? "Sending…" : `Send ${method.toUpperCase()} request`}
      </button>
      {error && <p className="text-xs text-rose-700">Request failed: {error}</p>}
      {answer && (
        <div className="rounded border border-slate-200 bg-slate-900 p-3 text-xs text-slate-100">
          <div className="mb-2 font-mono">
            <span className={answer.status < 400 ? "text-emerald-400" : "text-rose-400"}>
              {answer.status} {answer.statusText}
            </span>
            <span className="text-slate-500"> · {answer.ms} ms</span>
          </div>
          {answer.headers.map(([name, value]) => (
            <div key={name} className="font-mono text-slate-500">
              {name}: {value}
            </div>
          ))}
          {answer.pdfUrl ? (
            <a
              className="mt-2 inline-block text-blue-300 underline"
              href={answer.pdfUrl}
              target="_blank"
              rel="noreferrer"
            >
              Open the PDF ({answer.body})
            </a>
          ) : (
            <pre className="mt-2 max-h-96 overflow-auto whitespace-pre-wrap font-mono">{answer.body}</pre>
          )}
        </div>
      )}
    </div>
  );
}
