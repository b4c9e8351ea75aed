import { problem } from "@/server/http/problem";

/**
 * Any path under /api/v2 that no operation serves: a 404 problem, like every other error of the API,
 * instead of Next's HTML not-found page. Needs nothing else (no database, no credentials).
 */
function noSuchOperation(request: Request): Response {
  const { pathname } = new URL(request.url);
  return problem(404, `No operation at ${pathname}. The API's operations are listed in /api/v2/openapi.json.`, {
    code: "not_found",
  });
}

export { noSuchOperation as GET, noSuchOperation as POST, noSuchOperation as PUT, noSuchOperation as PATCH };
export { noSuchOperation as DELETE, noSuchOperation as OPTIONS };
