import { env } from "@/server/env";
import { handler } from "@/server/http/handler";
import { widgetScript } from "@/server/widget/pickup-points-script";

/**
 * The checkout widget's script, loaded by shops' pages from their own origin: readable by any page (it holds no
 * secret), cached briefly so a fix reaches shops within minutes.
 */
export const GET = handler(
  async () =>
    new Response(widgetScript(new URL(env().PUBLIC_URL).origin), {
      headers: {
        "content-type": "text/javascript; charset=utf-8",
        "cache-control": "public, max-age=300",
        "access-control-allow-origin": "*",
        "cross-origin-resource-policy": "cross-origin",
      },
    }),
  { operationId: "widgetScript" },
);
