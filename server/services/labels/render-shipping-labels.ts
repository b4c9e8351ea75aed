import { MAX_LABELS } from "@/lib/label-formats";
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { accounts, parcels, shippingOrders, type ParcelRow, type ShippingOrderRow } from "@/db/schema";
import { findCourier } from "@/server/couriers/registry";
import { AppError, badField } from "@/server/errors";
import { PDFDocument } from "pdf-lib";
import {
  renderLabelDocument,
  ZPL_MEDIA_TYPE,
  type LabelDocument,
  type LabelFormat,
} from "@/server/labels/label-format";
import { courierLabel, hasCourierLabels, mergePdfs, parcelPart } from "./courier-labels";
import type { LabelParcel } from "@/server/labels/render-labels";
import { findLiveOrder } from "../shipping-orders/get-shipping-order";

export { MAX_LABELS };

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
  if (hasCourierLabels(order)) {
    const document = await courierLabel(db, order, format);
    return { ...document, filename: `label-${safeFilename(order.referenceNumber)}.${document.extension}` };
  }
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
  const label = (n: string) => {
    const r = found.get(n)!;
    return toLabel(r.order, r.parcel, countBy.get(r.order.id) ?? 1, sender);
  };
  const document = rows.some((r) => hasCourierLabels(r.order))
    ? await mixedLabels(db, wanted, found, countBy, label, format)
    : await renderLabelDocument(wanted.map(label), format);
  const references = [...new Set(wanted.map((n) => found.get(n)!.order.referenceNumber))];
  const name =
    references.length === 1
      ? safeFilename(references[0]!)
      : `${safeFilename(references[0]!)}-and-${references.length - 1}-more`;
  return { ...document, filename: `labels-${name}.${document.extension}` };
}

/**
 * Labels of numbers some of which belong to couriers with labels of their own: each such parcel's page (or
 * `^XA…^XZ` block) of its order's courier file, the others drawn by the platform, in the order asked. A courier
 * file that has no page per parcel (an A4 sheet) is included once, whole, for its order.
 */
async function mixedLabels(
  db: Executor,
  wanted: string[],
  found: Map<string, { parcel: ParcelRow; order: ShippingOrderRow }>,
  countBy: Map<string, number>,
  label: (n: string) => LabelParcel,
  format: LabelFormat,
): Promise<LabelDocument> {
  const files = new Map<string, LabelDocument>();
  const wholeDone = new Set<string>();
  const pdfParts: Parameters<typeof mergePdfs>[0] = [];
  const zplParts: string[] = [];
  for (const n of wanted) {
    const { order, parcel } = found.get(n)!;
    let part: Awaited<ReturnType<typeof parcelPart>>;
    if (hasCourierLabels(order)) {
      let file = files.get(order.id);
      if (!file) files.set(order.id, (file = await courierLabel(db, order, format)));
      part = await parcelPart(file, parcel.position, countBy.get(order.id) ?? 1);
      if (part.whole) {
        if (wholeDone.has(order.id)) continue;
        wholeDone.add(order.id);
      }
    } else {
      const own = await renderLabelDocument([label(n)], format === "pdf-a4" ? "pdf-a6" : format);
      part =
        own.extension === "zpl"
          ? { zpl: new TextDecoder().decode(own.body), whole: false }
          : { pdf: { doc: await PDFDocument.load(own.body), pages: [0] }, whole: false };
    }
    if (part.pdf) pdfParts.push(part.pdf);
    if (part.zpl !== undefined) zplParts.push(part.zpl);
  }
  if (format === "zpl")
    return { body: new TextEncoder().encode(zplParts.join("\n")), contentType: ZPL_MEDIA_TYPE, extension: "zpl" };
  return { body: await mergePdfs(pdfParts), contentType: "application/pdf", extension: "pdf" };
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
