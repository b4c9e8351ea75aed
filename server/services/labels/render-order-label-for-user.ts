import type { Executor } from "@/db/client";
import { AppError } from "@/server/errors";
import { getActor } from "../accounts/get-actor";
import { accountAccess } from "../authorization";
import type { LabelFormat } from "@/server/labels/label-format";
import { renderLabelsByNumber, renderOrderLabel, type LabelFile } from "./render-shipping-labels";

/**
 * An order's labels for a dashboard session. The session only proves who signed in; whether the user still
 * exists, is staff, and may open the account is read from the database now. Every member may print.
 */
export async function renderOrderLabelForUser(
  db: Executor,
  userId: string,
  accountId: string,
  orderId: string,
  format: LabelFormat,
): Promise<LabelFile> {
  const actor = await getActor(db, userId);
  if (!actor) throw new AppError("unauthorized", "Sign in to continue.");
  await accountAccess(db, actor, accountId);
  return renderOrderLabel(db, accountId, orderId, format);
}

/**
 * One file with the labels of `shippingNumbers` (the dashboard's "Print labels" of chosen orders), for a dashboard
 * session, with the REST `GET /labels` rules: in the order asked, a number of no live order of the account → 404.
 */
export async function renderLabelsByNumberForUser(
  db: Executor,
  userId: string,
  accountId: string,
  shippingNumbers: string[],
  format: LabelFormat,
): Promise<LabelFile> {
  const actor = await getActor(db, userId);
  if (!actor) throw new AppError("unauthorized", "Sign in to continue.");
  await accountAccess(db, actor, accountId);
  return renderLabelsByNumber(db, accountId, shippingNumbers, format);
}
