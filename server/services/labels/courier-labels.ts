import { and, eq } from "drizzle-orm";
import { PDFDocument } from "pdf-lib";
import type { Executor } from "@/db/client";
import { labelFiles, type ShippingOrderRow } from "@/db/schema";
import { findCourier } from "@/server/couriers/registry";
import { AppError } from "@/server/errors";
import { ZPL_MEDIA_TYPE, type LabelDocument, type LabelFormat } from "@/server/labels/label-format";
import { callCourier } from "../couriers/call-courier";
import { profileSettings, storedShipment } from "../couriers/stored-shipments";

/** What a label the courier cannot produce answers: 502 COURIER_UNAVAILABLE (retried on the next request). */
export const courierLabelUnavailable = (courierName: string, cause?: unknown) =>
  new AppError(
    "bad_gateway",
    `${courierName} could not produce the label; nothing was kept, so the next request asks again.`,
    { cause, details: { problemCode: "COURIER_UNAVAILABLE" } },
  );

/** Whether the order's labels come from its courier (a remote courier with labels of its own). */
export const hasCourierLabels = (order: Pick<ShippingOrderRow, "courier">): boolean => {
  const courier = findCourier(order.courier);
  return Boolean(courier?.remote && courier.fetchLabel);
};

/**
 * The courier's label file of an order in a format: fetched from the courier once (outside any transaction) and
 * kept in `label_files`, so every later request is served from the database. A courier that cannot produce it →
 * 502 COURIER_UNAVAILABLE, and the next request asks again.
 */
export async function courierLabel(db: Executor, order: ShippingOrderRow, format: LabelFormat): Promise<LabelDocument> {
  const extension = format === "zpl" ? "zpl" : "pdf";
  const contentType = format === "zpl" ? ZPL_MEDIA_TYPE : "application/pdf";
  const [kept] = await db
    .select({ body: labelFiles.body })
    .from(labelFiles)
    .where(and(eq(labelFiles.orderId, order.id), eq(labelFiles.format, format)));
  if (kept) return { body: new Uint8Array(kept.body), contentType, extension };

  const courier = findCourier(order.courier);
  if (!courier?.fetchLabel) throw new Error(`courier ${order.courier} has no labels of its own`);
  const fetchLabel = courier.fetchLabel.bind(courier);
  const shipment = await storedShipment(db, order);
  const settings = (await profileSettings(db, courier, order.courierProfileId)) ?? {};
  let file;
  try {
    file = await callCourier(db, courier, "label", settings, (ctx) => fetchLabel(shipment, format, settings, ctx));
  } catch (error) {
    throw courierLabelUnavailable(courier.capabilities.name, error);
  }
  const body = new Uint8Array(file.body);
  await db.insert(labelFiles).values({ orderId: order.id, format, contentType, body }).onConflictDoNothing();
  return { body, contentType, extension };
}

/**
 * The part of an order's courier label file that shows one parcel: its page (PDF) or its `^XA…^XZ` block (ZPL)
 * when the file has one per parcel, else the whole file (an A4 sheet of several labels).
 */
export async function parcelPart(
  file: LabelDocument,
  position: number,
  parcelCount: number,
): Promise<{ pdf?: { doc: PDFDocument; pages: number[] }; zpl?: string; whole: boolean }> {
  if (file.extension === "zpl") {
    const text = new TextDecoder().decode(file.body);
    const blocks = text.match(/\^XA[\s\S]*?\^XZ/g) ?? [text];
    const whole = blocks.length !== parcelCount;
    return { zpl: whole ? blocks.join("\n") : blocks[position]!, whole };
  }
  const doc = await PDFDocument.load(file.body);
  const count = doc.getPageCount();
  const whole = count !== parcelCount;
  return { pdf: { doc, pages: whole ? [...Array(count).keys()] : [position] }, whole };
}

/** One PDF of the given pages of several documents, in order. */
export async function mergePdfs(parts: { doc: PDFDocument; pages: number[] }[]): Promise<Uint8Array> {
  const out = await PDFDocument.create();
  for (const part of parts) {
    const copied = await out.copyPages(part.doc, part.pages);
    for (const page of copied) out.addPage(page);
  }
  return out.save();
}
