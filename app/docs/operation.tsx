import type { MediaJson, OperationEntry, ParameterJson, ResponseJson } from "@/server/openapi/document-json";
import { InlineMarkdown, Markdown } from "./markdown";
import { SchemaView, typeLabel } from "./schema-view";
import { TryIt, type TryItAuth, type TryItBody, type TryItParameter } from "./try-it";

export const METHOD_COLORS: Record<string, string> = {
  get: "bg-emerald-100 text-emerald-800",
  post: "bg-blue-100 text-blue-800",
  patch: "bg-amber-100 text-amber-800",
  delete: "bg-rose-100 text-rose-800",
};

export function MethodBadge({ method }: { method: string }) {
  return (
    <span
      className={`inline-block w-16 rounded px-1.5 py-0.5 text-center font-mono text-[11px] font-bold uppercase ${METHOD_COLORS[method] ?? "bg-slate-100"}`}
    >
      {method}
    </span>
  );
}

function statusColor(status: string): string {
  if (status.startsWith("2")) return "bg-emerald-100 text-emerald-800";
  if (status.startsWith("4")) return "bg-amber-100 text-amber-800";
  return "bg-rose-100 text-rose-800";
}

function authOf(entry: OperationEntry): { kind: TryItAuth; text: string } {
  const schemes = entry.op.security ?? [];
  const apiKey = schemes.find((s) => "ApiKeyBearer" in s);
  if (apiKey) {
    const permission = apiKey.ApiKeyBearer?.[0];
    return {
      kind: "apiKey",
      text: `API key${permission ? ` with the permission \`${permission}\`` : ""}: \`Authorization: Bearer <key>\` or \`X-API-Key: <key>\`.`,
    };
  }
  if (schemes.some((s) => "AccessToken" in s))
    return { kind: "accessToken", text: "Access token of a dashboard user: `Authorization: Bearer <accessToken>`." };
  return { kind: "none", text: "None." };
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** A media type's examples behind one disclosure, so tabbing through the page meets one stop, not one per example. */
function Examples({ media }: { media: MediaJson }) {
  const examples = Object.entries(media.examples ?? {});
  if (examples.length === 0) return null;
  return (
    <details className="mt-2 rounded border border-slate-200 bg-white">
      <summary className="cursor-pointer px-2 py-1 text-xs text-slate-700">
        {examples.length === 1 ? "Example" : `Examples (${examples.length})`}:{" "}
        <span className="font-medium">{examples.map(([name, example]) => example.summary ?? name).join(" · ")}</span>
      </summary>
      <div className="space-y-2 border-t border-slate-200 p-2">
        {examples.map(([name, example]) => (
          <figure key={name}>
            <figcaption className="mb-1 text-xs font-medium text-slate-700">{example.summary ?? name}</figcaption>
            <pre className="max-h-96 overflow-auto rounded bg-slate-900 p-2 font-mono text-[11px] leading-snug text-slate-100">
              {json(example.value)}
            </pre>
          </figure>
        ))}
      </div>
    </details>
  );
}

function Content({ content }: { content: Record<string, MediaJson> }) {
  return (
    <div className="space-y-3">
      {Object.entries(content).map(([type, media]) => (
        <div key={type}>
          <div className="mb-1 font-mono text-[11px] text-slate-500">{type}</div>
          {media.schema && <SchemaView schema={media.schema} />}
          <Examples media={media} />
        </div>
      ))}
    </div>
  );
}

function Parameters({ parameters }: { parameters: ParameterJson[] }) {
  return (
    <table className="w-full text-left text-sm">
      <thead>
        <tr className="text-xs text-slate-500">
          <th className="py-1 pr-3 font-medium">Name</th>
          <th className="py-1 pr-3 font-medium">Type</th>
          <th className="py-1 font-medium">Description</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100 align-top">
        {parameters.map((p) => (
          <tr key={`${p.in}-${p.name}`}>
            <td className="py-1.5 pr-3">
              <div className="font-mono text-[13px] font-semibold">{p.name}</div>
              <div className="text-[11px] text-slate-500">
                {p.in}
                {p.required ? <span className="text-rose-600"> · required</span> : ""}
              </div>
            </td>
            <td className="py-1.5 pr-3 font-mono text-xs text-violet-700">
              {typeLabel(p.schema)}
              {p.style && (
                <div className="text-[11px] text-slate-500">{`style: ${p.style}, explode: ${String(p.explode)}`}</div>
              )}
            </td>
            <td className="py-1.5 text-slate-700">
              {p.description && <Markdown text={p.description} />}
              {p.schema.example !== undefined && (
                <div className="font-mono text-[11px] text-slate-500">e.g. {JSON.stringify(p.schema.example)}</div>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ResponseItem({ status, response }: { status: string; response: ResponseJson }) {
  return (
    <details className="rounded border border-slate-200">
      <summary className="flex cursor-pointer items-baseline gap-2 px-2 py-1.5">
        <span className={`rounded px-1.5 py-0.5 font-mono text-xs font-bold ${statusColor(status)}`}>{status}</span>
        <InlineMarkdown text={response.description} className="text-sm text-slate-700" />
      </summary>
      <div className="space-y-3 border-t border-slate-200 p-3">
        {response.headers && (
          <ul className="text-xs">
            {Object.entries(response.headers).map(([name, header]) => (
              <li key={name}>
                <span className="font-mono font-semibold">{name}</span>:{" "}
                <InlineMarkdown text={header.description ?? ""} className="text-slate-600" />
                {header.required ? "" : <span className="text-slate-500"> (not always sent)</span>}
              </li>
            ))}
          </ul>
        )}
        {response.content && <Content content={response.content} />}
      </div>
    </details>
  );
}

const exampleText = (value: unknown) =>
  Array.isArray(value) ? value.join(",") : value === undefined ? "" : String(value);

export function Operation({ entry }: { entry: OperationEntry }) {
  const { method, path, op } = entry;
  const auth = authOf(entry);
  const parameters = op.parameters ?? [];
  const tryParameters: TryItParameter[] = parameters
    .filter((p): p is ParameterJson & { in: TryItParameter["in"] } => p.in !== "cookie")
    .map((p) => ({ name: p.name, in: p.in, required: p.required, example: exampleText(p.schema.example) }));
  const tryBodies: TryItBody[] = Object.entries(op.requestBody?.content ?? {}).map(([mediaType, media]) => ({
    mediaType,
    example: json(Object.values(media.examples ?? {})[0]?.value ?? {}),
  }));
  return (
    <section id={op.operationId} className="scroll-mt-6 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex flex-wrap items-center gap-3">
        <MethodBadge method={method} />
        <code className="font-mono text-sm font-semibold text-slate-900">{path}</code>
      </div>
      <h3 className="mt-2 text-lg font-semibold text-slate-900">{op.summary}</h3>
      <Markdown text={op.description} className="text-sm leading-relaxed text-slate-700" />
      <div className="mt-3 text-sm">
        <span className="font-medium text-slate-900">Authentication: </span>
        <InlineMarkdown text={auth.text} />
      </div>
      {parameters.length > 0 && (
        <div className="mt-4">
          <h4 className="mb-1 text-sm font-semibold text-slate-900">Parameters</h4>
          <Parameters parameters={parameters} />
        </div>
      )}
      {op.requestBody && (
        <div className="mt-4">
          <h4 className="mb-1 text-sm font-semibold text-slate-900">
            Request body{op.requestBody.required ? "" : " (optional)"}
          </h4>
          {op.requestBody.description && (
            <Markdown text={op.requestBody.description} className="text-sm text-slate-600" />
          )}
          <Content content={op.requestBody.content} />
        </div>
      )}
      {/* One stop for the whole list when tabbing through the page: each answer opens on its own once inside. */}
      <details className="mt-4 rounded border border-slate-200">
        <summary className="cursor-pointer px-3 py-2 text-sm font-semibold text-slate-900">
          Responses ({Object.keys(op.responses).join(", ")})
        </summary>
        <div className="space-y-1 border-t border-slate-200 p-3">
          {Object.entries(op.responses).map(([status, response]) => (
            <ResponseItem key={status} status={status} response={response} />
          ))}
        </div>
      </details>
      <details className="mt-4 rounded border border-blue-200 bg-blue-50/40">
        <summary className="cursor-pointer px-3 py-2 text-sm font-semibold text-blue-800">Try it</summary>
        <div className="border-t border-blue-200 p-3">
          <TryIt method={method} path={path} auth={auth.kind} parameters={tryParameters} bodies={tryBodies} />
        </div>
      </details>
    </section>
  );
}
