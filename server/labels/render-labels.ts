import bwipjs from "bwip-js/node";
import { PDFDocument, StandardFonts, rgb, type Color, type PDFFont, type PDFImage, type PDFPage } from "pdf-lib";
import { fitText } from "./pdf-text";

export type LabelAddress = {
  name: string;
  company?: string | null;
  street?: string | null;
  city?: string | null;
  zip?: string | null;
  country?: string | null;
  phone?: string | null;
  email?: string | null;
};
export type LabelParcel = {
  shippingNumber: string; // e.g. "SBX0000000042"
  parcelIndex: number; // 1-based position of this parcel in its order
  parcelCount: number; // parcels in the order
  weightKg: number;
  referenceNumber: string;
  service: string; // e.g. "STANDARD"
  courierName: string; // e.g. "Sandbox courier"
  codPrice: string | null; // "123.45" or null
  codCurrency: string | null; // "CZK" or null
  pickupPoint: string | null;
  sender: LabelAddress; // the partner account (at least a name)
  recipient: LabelAddress;
};

const MM = 72 / 25.4;
const PAGE_W = 105 * MM;
const PAGE_H = 148 * MM;
const MARGIN = 5 * MM;
const CONTENT_W = PAGE_W - 2 * MARGIN;
const BLACK = rgb(0, 0, 0);
const WHITE = rgb(1, 1, 1);
const GREY = rgb(0.35, 0.35, 0.35);

const BARCODE_SCALE = 3;
// bwip-js draws one module per point at scale 1. 1.5 pt (0.53 mm) is ~4 dots on a 203 dpi thermal printer,
// comfortably above what handheld scanners need, while leaving room for long shipping numbers.
const MAX_MODULE_PT = 1.5;

type Fonts = { regular: PDFFont; bold: PDFFont };

/** One A6 portrait page (105 × 148 mm = 297.64 × 419.53 pt) per parcel, in input order. */
export async function renderLabels(parcels: LabelParcel[]): Promise<Uint8Array> {
  const { doc, fonts } = await newDocument(parcels);
  for (const parcel of parcels) {
    const barcode = await doc.embedPng(await barcodePng(parcel.shippingNumber));
    drawLabel(doc.addPage([PAGE_W, PAGE_H]), parcel, fonts, barcode);
  }
  return doc.save();
}

const A4_W = 210 * MM;
const A4_H = 297 * MM;
/** Two columns of two A6 labels fill an A4 sheet exactly in width; the 1 mm left in height is split above and below. */
/** Four labels per A4 portrait sheet (2 × 2 A6 boxes, left to right then top to bottom), for office printers. */
export async function renderLabelsA4(parcels: LabelParcel[]): Promise<Uint8Array> {
  const { doc, fonts } = await newDocument(parcels);
  const gap = (A4_H - 2 * PAGE_H) / 2;
  const slots = [
    { x: 0, y: gap + PAGE_H },
    { x: PAGE_W, y: gap + PAGE_H },
    { x: 0, y: gap },
    { x: PAGE_W, y: gap },
  ];
  let page: PDFPage | undefined;
  for (const [i, parcel] of parcels.entries()) {
    if (i % slots.length === 0) {
      page = doc.addPage([A4_W, A4_H]);
      drawCutLines(page, gap);
    }
    const barcode = await doc.embedPng(await barcodePng(parcel.shippingNumber));
    drawLabel(page!, parcel, fonts, barcode, slots[i % slots.length]!);
  }
  return doc.save();
}

function drawCutLines(page: PDFPage, gap: number) {
  const style = { thickness: 0.3, color: GREY, dashArray: [3, 3] };
  page.drawLine({ start: { x: PAGE_W, y: gap }, end: { x: PAGE_W, y: gap + 2 * PAGE_H }, ...style });
  page.drawLine({ start: { x: 0, y: gap + PAGE_H }, end: { x: A4_W, y: gap + PAGE_H }, ...style });
}

async function newDocument(parcels: LabelParcel[]): Promise<{ doc: PDFDocument; fonts: Fonts }> {
  if (parcels.length === 0) throw new Error("no parcels");
  const doc = await PDFDocument.create();
  doc.setTitle(
    parcels.length === 1
      ? `Shipping label ${parcels[0]!.shippingNumber}`
      : `Shipping labels (${parcels.length} parcels)`,
  );
  doc.setProducer("Shipping order platform");
  doc.setCreator("Shipping order platform");
  const fonts: Fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
  };
  return { doc, fonts };
}

function barcodePng(text: string): Promise<Buffer> {
  return bwipjs.toBuffer({
    bcid: "code128",
    text,
    scale: BARCODE_SCALE,
    height: 12, // mm before scaling to the page; ends up ~15–18 mm tall
    includetext: true,
    textxalign: "center",
    paddingwidth: 10, // the 10-module quiet zone Code 128 requires on each side
    paddingheight: 2,
    // Opaque white: from bwip-js's default transparent background pdf-lib would store all-black colour data
    // plus an alpha mask, and anything that ignores the mask (some print paths, image extraction) sees a black block.
    backgroundcolor: "FFFFFF",
  });
}

/** Draws one label in the A6 box whose lower-left corner is `at` (the page's origin for A6, a quarter of an A4 sheet). */
function drawLabel(
  page: PDFPage,
  p: LabelParcel,
  { regular, bold }: Fonts,
  barcode: PDFImage,
  at: { x: number; y: number } = { x: 0, y: 0 },
) {
  const left = at.x + MARGIN;
  const right = at.x + PAGE_W - MARGIN;
  const bottom = at.y + MARGIN;
  let y = at.y + PAGE_H - MARGIN;

  const text = (value: string, font: PDFFont, size: number, opts: { maxWidth?: number; color?: Color } = {}) => {
    y -= size;
    page.drawText(fitText(value, font, size, opts.maxWidth ?? CONTENT_W), {
      x: left,
      y,
      size,
      font,
      color: opts.color ?? BLACK,
    });
    y -= size * 0.25;
  };
  const rule = () => {
    y -= 4;
    page.drawLine({ start: { x: left, y }, end: { x: right, y }, thickness: 0.8, color: BLACK });
    y -= 5;
  };
  const caption = (value: string) => text(value, bold, 7, { color: GREY });

  // Header: courier on the left, service inverted on the right so sorters spot it at a glance.
  const serviceSize = 13;
  const service = fitText(p.service, bold, serviceSize, CONTENT_W / 2);
  const serviceBoxW = bold.widthOfTextAtSize(service, serviceSize) + 10;
  page.drawRectangle({ x: right - serviceBoxW, y: y - 20, width: serviceBoxW, height: 20, color: BLACK });
  page.drawText(service, {
    x: right - serviceBoxW + 5,
    y: y - 15,
    size: serviceSize,
    font: bold,
    color: WHITE,
  });
  y -= 2;
  text(p.courierName, bold, 16, { maxWidth: CONTENT_W - serviceBoxW - 8 });
  y -= 2;
  rule();

  caption("FROM");
  const s = p.sender;
  text([s.name, s.company].filter(Boolean).join(", "), bold, 8);
  for (const line of [s.street, joinNonEmpty(" ", s.zip, s.city), s.country]) if (line) text(line, regular, 8);
  rule();

  caption("TO");
  const r = p.recipient;
  text(r.name, bold, 14);
  if (r.company) text(r.company, regular, 11);
  if (r.street) text(r.street, regular, 11);
  const zipCity = joinNonEmpty(" ", r.zip, r.city);
  if (zipCity) text(zipCity, bold, 13);
  if (r.country) text(r.country, regular, 11);
  if (r.phone) text(`Tel. ${r.phone}`, regular, 10);
  rule();

  const parcelOf = `Parcel ${p.parcelIndex} / ${p.parcelCount}`;
  const parcelOfW = bold.widthOfTextAtSize(parcelOf, 12);
  page.drawText(parcelOf, { x: right - parcelOfW, y: y - 10, size: 12, font: bold });
  text(`Ref. ${p.referenceNumber}`, bold, 10, { maxWidth: CONTENT_W - parcelOfW - 8 });
  y -= 2;
  text(`Weight ${formatWeight(p.weightKg)} kg`, regular, 10);
  if (p.pickupPoint) text(`Pickup point: ${p.pickupPoint}`, bold, 10);

  y -= 4;
  if (p.codPrice) {
    // Boxed and heavy: the driver must not hand the parcel over without collecting this amount.
    const boxH = 24;
    page.drawRectangle({ x: left, y: y - boxH, width: CONTENT_W, height: boxH, borderColor: BLACK, borderWidth: 2 });
    const amount = fitText(`COD ${joinNonEmpty(" ", p.codPrice, p.codCurrency)}`, bold, 15, CONTENT_W - 16);
    page.drawText(amount, { x: left + 8, y: y - boxH + 7, size: 15, font: bold });
    y -= boxH;
  } else {
    text("No COD", regular, 10);
  }

  // The barcode block is anchored to the bottom edge; the blocks above are single, width-capped lines
  // with a fixed worst-case height, so they end well above it.
  const naturalW = barcode.width / BARCODE_SCALE;
  const zoom = Math.min(MAX_MODULE_PT, CONTENT_W / naturalW);
  const barcodeW = naturalW * zoom;
  const barcodeH = (barcode.height / BARCODE_SCALE) * zoom;
  page.drawImage(barcode, { x: at.x + (PAGE_W - barcodeW) / 2, y: bottom, width: barcodeW, height: barcodeH });

  const numberSize = 20;
  const number = fitText(p.shippingNumber, bold, numberSize, CONTENT_W);
  page.drawText(number, {
    x: at.x + (PAGE_W - bold.widthOfTextAtSize(number, numberSize)) / 2,
    y: bottom + barcodeH + 6,
    size: numberSize,
    font: bold,
  });
}

function joinNonEmpty(separator: string, ...parts: (string | null | undefined)[]): string {
  return parts.filter((part): part is string => !!part && part.trim() !== "").join(separator);
}

function formatWeight(kg: number): string {
  // Rounding hides float noise like 0.30000000000000004 that sums of parcel weights produce.
  return String(Math.round(kg * 1000) / 1000);
}
