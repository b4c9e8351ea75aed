import { getSession } from "@/server/auth/next-auth";
import { AppError } from "@/server/errors";
import { handler } from "@/server/http/handler";
import { labelFormatOf, labelResponse } from "@/server/http/label-file";
import { renderLabelsByNumberForUser } from "@/server/services/labels/render-order-label-for-user";
import { MAX_LABELS } from "@/server/services/labels/render-shipping-labels";
import { labelsCost } from "@/server/services/rate-limits/request-costs";
import { throttleDashboard } from "@/server/services/rate-limits/throttle-dashboard";

/**
 * The dashboard's door to `GET /labels`: the labels of several orders' parcels in one document (A4 sheets packed
 * across orders), for a session instead of an API key. `?account=` names the account, `?shippingNumbers=` the
 * numbers (comma-separated, as the REST route takes them), `?format=` and `download` as on the one-order route.
 */
export const GET = handler(
  async ({ url, db }) => {
    const session = await getSession();
    if (!session) throw new AppError("unauthorized", "Sign in to continue.");
    const numbers = (url.searchParams.get("shippingNumbers") ?? "")
      .split(",")
      .map((n) => n.trim())
      .filter(Boolean);
    // Per user only: the account in the query is not yet known to be the user's. Each label drawn counts one.
    await throttleDashboard(db, { userId: session.user.id }, labelsCost(Math.min(numbers.length, MAX_LABELS + 1)));
    const file = await renderLabelsByNumberForUser(
      db,
      session.user.id,
      url.searchParams.get("account") ?? "",
      numbers,
      labelFormatOf(url),
    );
    return labelResponse(file, { attachment: url.searchParams.has("download") });
  },
  { query: ["account", "shippingNumbers", "format", "download"] },
);
