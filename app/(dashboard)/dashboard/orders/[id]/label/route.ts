import { getSession } from "@/server/auth/next-auth";
import { AppError } from "@/server/errors";
import { handler } from "@/server/http/handler";
import { pdf } from "@/server/http/pdf";
import { renderOrderLabelForUser } from "@/server/services/labels/render-order-label-for-user";

/**
 * The dashboard's label door: the REST label route wants an API key, a signed-in user has a session
 * cookie instead. `?account=` names the account as on every dashboard page; `download` asks the browser
 * to save the file rather than show it.
 */
export const GET = handler<{ id: string }>(
  async ({ url, params, db }) => {
    const session = await getSession();
    if (!session) throw new AppError("unauthorized", "Sign in to continue.");
    const bytes = await renderOrderLabelForUser(db, session.user.id, url.searchParams.get("account") ?? "", params.id);
    const response = pdf(bytes, `label-${params.id}.pdf`);
    if (url.searchParams.has("download"))
      response.headers.set("content-disposition", `attachment; filename="label-${params.id}.pdf"`);
    return response;
  },
  { query: ["account", "download"] },
);
