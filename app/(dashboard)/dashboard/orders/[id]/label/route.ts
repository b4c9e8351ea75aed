import { getSession } from "@/server/auth/next-auth";
import { AppError } from "@/server/errors";
import { handler } from "@/server/http/handler";
import { labelFormatOf, labelResponse } from "@/server/http/label-file";
import { renderOrderLabelForUser } from "@/server/services/labels/render-order-label-for-user";
import { labelsCost } from "@/server/services/rate-limits/request-costs";
import { throttleDashboard } from "@/server/services/rate-limits/throttle-dashboard";

/**
 * The dashboard's label door: the REST label route wants an API key, a signed-in user has a session
 * cookie instead. `?account=` names the account as on every dashboard page, `?format=` the format as on
 * the REST route; `download` asks the browser to save the file rather than show it.
 */
export const GET = handler<{ id: string }>(
  async ({ url, params, db }) => {
    const session = await getSession();
    if (!session) throw new AppError("unauthorized", "Sign in to continue.");
    // Per user only: the account in the query is not yet known to be the user's.
    await throttleDashboard(db, { userId: session.user.id }, labelsCost(1));
    const file = await renderOrderLabelForUser(
      db,
      session.user.id,
      url.searchParams.get("account") ?? "",
      params.id,
      labelFormatOf(url),
    );
    return labelResponse(file, { attachment: url.searchParams.has("download") });
  },
  { query: ["account", "format", "download"] },
);
