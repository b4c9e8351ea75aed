import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { accounts, parcels, shippingOrders, type ParcelRow, type ShippingOrderRow } from "@/db/schema";
import { findCourier } from "@/server/couriers/registry";
import { AppError, badField } from "@/server/errors";
import { renderLabelDocument, type LabelDocument, type LabelFormat } from "@/server/labels/label-format";
import type { LabelParcel } from "@/server/labels/render-labels";
import { findLiveOrder } from "../shipping-orders/get-shipping-order";

export const MAX_LABELS = 100;

/** A label file, named after the reference number(s) it is for, as a download names it. */
export type LabelFile = LabelDocument & { filename: string };

/** The labels of one order in the format asked: a label per parcel. */
export async function renderOrderLabel(
  db: Executor,
  accountId: string,
  orderId: string,
  format: LabelFormat,
): Promise<LabelFile> {
  const order = await findLiveOrder(db, accountId, orderId);
  const rows = await db.select().from(parcels).where(eq(parcels.orderId, order.id)).orderBy(asc(parcels.position));
  const sender = await accountName(db, accountId);
  const document = await renderLabelDocument(
    rows.map((p) => toLabel(order, p, rows.length, sender)),
    format,
  );
  return { ...document, filename: `label-${safeFilename(order.referenceNumber)}.${document.extension}` };
}

/** What a labels request is refused with (the OpenAPI examples show these very errors). */
export const labelRefusals = {
  none: () => badField("shippingNumbers", "give at least one shipping number"),
  tooMany: () => badField("shippingNumbers", `at most ${MAX_LABELS} shipping numbers`),
  unknown: (missing: string[]) =>
    new AppError("not_found", `Unknown shipping number ${missing.join(", ")}.`, {
      errors: [{ field: "shippingNumbers", message: `unknown: ${missing.join(", ")}` }],
    }),
};

/** One file with a label per shipping number, in the order asked; any number not among the account's live orders → 404. */
export async function renderLabelsByNumber(
  db: Executor,
  accountId: string,
  shippingNumbers: string[],
  format: LabelFormat,
): Promise<LabelFile> {
  const wanted = [...new Set(shippingNumbers)];
  if (wanted.length === 0) throw labelRefusals.none();
  if (wanted.length > MAX_LABELS) throw labelRefusals.tooMany();
  const rows = await db
    .select({ parcel: parcels, order: shippingOrders })
    .from(parcels)
    .innerJoin(shippingOrders, eq(shippingOrders.id, parcels.orderId))
    .where(
      and(
        inArray(parcels.shippingNumber, wanted),
        eq(shippingOrders.accountId, accountId),
        isNull(shippingOrders.deletedAt),
      ),
    );
  const found = new Map(rows.map((r) => [r.parcel.shippingNumber, r]));
  const missing = wanted.filter((n) => !found.has(n));
  if (missing.length > 0) throw labelRefusals.unknown(missing);
  const counts = await db
    .select({ orderId: parcels.orderId })
    .from(parcels)
    .where(inArray(parcels.orderId, [...new Set(rows.map((r) => r.order.id))]));
  const countBy = new Map<string, number>();
  for (const c of counts) countBy.set(c.orderId, (countBy.get(c.orderId) ?? 0) + 1);
  const sender = await accountName(db, accountId);
  const document = await renderLabelDocument(
    wanted.map((n) => {
      const r = found.get(n)!;
      return toLabel(r.order, r.parcel, countBy.get(r.order.id) ?? 1, sender);
    }),
    format,
  );
  const references = [...new Set(wanted.map((n) => found.get(n)!.order.referenceNumber))];
  const name =
    references.length === 1
      ? safeFilename(references[0]!)
      : `${safeFilename(references[0]!)}-and-${references.length - 1}-more`;
  return { ...document, filename: `labels-${name}.${document.extension}` };
}

/** Reference numbers are partner text: anything beyond letters, digits, `.`, `_` and `-` becomes `_` in a file name. */
const safeFilename = (reference: string): string => reference.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 64);

async function accountName(db: Executor, accountId: string): Promise<string> {
  const [account] = await db.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, accountId));
  return account?.name ?? "Sender";
}

function toLabel(order: ShippingOrderRow, parcel: ParcelRow, parcelCount: number, sender: string): LabelParcel {
  return {
    shippingNumber: parcel.shippingNumber,
    parcelIndex: parcel.position + 1,
    parcelCount,
    weightKg: Number(parcel.weight),
    referenceNumber: order.referenceNumber,
    service: order.service,
    courierName: findCourier(order.courier)?.capabilities.name ?? order.courier,
    codPrice: order.codPrice,
    codCurrency: order.codCurrency,
    pickupPoint: order.pickupPoint,
    sender: { name: sender },
    recipient: {
      name: order.recipientName,
      company: order.recipientCompany,
      street: order.recipientStreet,
      city: order.recipientCity,
      zip: order.recipientZip,
      country: order.recipientCountry,
      phone: order.recipientPhone,
      email: order.recipientEmail,
    },
  };
}
