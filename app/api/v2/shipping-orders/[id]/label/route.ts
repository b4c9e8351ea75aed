import { labelResponse } from "@/server/http/label-file";
import { route } from "@/server/http/operation";
import { getShippingOrderLabelOp } from "@/server/operations/labels";
import { renderOrderLabel } from "@/server/services/labels/render-shipping-labels";

export const GET = route(getShippingOrderLabelOp, async ({ query, params, db, principal }) =>
  labelResponse(await renderOrderLabel(db, principal.accountId, params.id, query.format)),
);
