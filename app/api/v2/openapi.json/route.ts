import { openApiJson } from "@/server/openapi/document";

export function GET(): Response {
  return new Response(openApiJson(), {
    headers: { "content-type": "application/json", "cache-control": "public, max-age=300" },
  });
}
