import { handler } from "@/server/http/handler";
import { openApiJson } from "@/server/openapi/document";

export const GET = handler(
  async ({ baseUrl }) =>
    new Response(openApiJson(baseUrl), {
      headers: { "content-type": "application/json", "cache-control": "public, max-age=300" },
    }),
);
