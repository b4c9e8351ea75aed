import { problem } from "@/server/http/problem";
import { finishRequest } from "@/server/observability/http-requests";
import { requestIdOf, runInRequest } from "@/server/observability/request-context";

/**
 * Any path under /api/v2 that no operation serves: a 404 problem, like every other error of the API,
 * instead of Next's HTML not-found page. Needs nothing else (no database, no credentials), but ends as every
 * other request does: its `X-Request-Id`, its log line, and its metrics under the operation `unknown` (the path
 * is the client's to choose, so it never becomes a label).
 */
function noSuchOperation(request: Request): Response {
  const started = performance.now();
  const context = { requestId: requestIdOf(request.headers), operation: "unknown" };
  return runInRequest(context, () => {
    const { pathname } = new URL(request.url);
    const response = problem(
      404,
      `No operation at ${pathname}. The API's operations are listed in /api/v2/openapi.json.`,
      { code: "not_found" },
    );
    return finishRequest(request, response, context, started);
  });
}

export { noSuchOperation as GET, noSuchOperation as POST, noSuchOperation as PUT, noSuchOperation as PATCH };
export { noSuchOperation as DELETE, noSuchOperation as OPTIONS };
