import { inflateSync } from "node:zlib";
import bwipjs from "bwip-js/node";
import { PDFArray, PDFDocument, PDFName, PDFRawStream, StandardFonts, rgb, type Color, type PDFPage } from "pdf-lib";
import { fitText } from "@/server/labels/pdf-text";

/** One parcel's label as a courier fake draws it: the courier's header, sender and recipient, its barcode. */
export type FakeLabel = {
  /** The courier's name in its header ("Packeta", "PPL"). */
  courier: string;
  brand: Color;
  /** The product or destination in the header's right corner ("Pickup point 4321", "PRIV"). */
  service: string;
  /** What the barcode encodes (Packeta's `Z…` barcode, PPL's shipment number). */
  barcode: string;
  /** The number printed under it, as the courier groups it. */
  barcodeText: string;
  sender: string[];
  recipient: string[];
  /** Reference, weight, parcel of set and so on, one line each. */
  details: string[];
  cod: string | null;
};

const MM = 72 / 25.4;
const A6: [number, number] = [105 * MM, 148 * MM];
const A4: [number, number] = [210 * MM, 297 * MM];
const MARGIN = 5 * MM;
const BLACK = rgb(0, 0, 0);
const GREY = rgb(0.4, 0.4, 0.4);
const WHITE = rgb(1, 1, 1);

const barcodePng = (text: string) =>
  bwipjs.toBuffer({ bcid: "code128", text, scale: 3, height: 14, paddingwidth: 10, backgroundcolor: "FFFFFF" });

/**
 * A PDF of A6 labels laid out as the couriers print them (one per A6 page, or four per A4 sheet), so the dev fakes'
 * labels look like real ones; each says it comes from a local fake.
 */
export async function fakeLabelPdf(labels: FakeLabel[], { a4 = false }: { a4?: boolean } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`${labels[0]?.courier ?? ""} labels ${labels.map((l) => l.barcodeText).join(", ")} (local fake)`);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const [w, h] = A6;
  const slots = a4
    ? [
        { x: 0, y: h + (A4[1] - 2 * h) / 2 },
        { x: w, y: h + (A4[1] - 2 * h) / 2 },
        { x: 0, y: (A4[1] - 2 * h) / 2 },
        { x: w, y: (A4[1] - 2 * h) / 2 },
      ]
    : [{ x: 0, y: 0 }];
  let page: PDFPage | undefined;
  for (const [i, label] of labels.entries()) {
    if (i % slots.length === 0) page = doc.addPage(a4 ? A4 : A6);
    const { x, y: bottom } = slots[i % slots.length]!;
    const left = x + MARGIN;
    const width = w - 2 * MARGIN;
    let y = bottom + h - MARGIN;
    const line = (text: string, size: number, font = regular, color = BLACK) => {
      y -= size * 1.2;
      page!.drawText(fitText(text, font, size, width), { x: left, y, size, font, color });
    };
    const rule = () => {
      y -= 5;
      page!.drawLine({ start: { x: left, y }, end: { x: left + width, y }, thickness: 0.8, color: BLACK });
    };
    // The courier's header band, its name as its logo.
    page!.drawRectangle({ x: left, y: y - 30, width, height: 30, color: label.brand });
    page!.drawText(label.courier, { x: left + 8, y: y - 23, size: 22, font: bold, color: WHITE });
    const service = fitText(label.service, bold, 10, width / 2);
    page!.drawText(service, {
      x: left + width - 8 - bold.widthOfTextAtSize(service, 10),
      y: y - 19,
      size: 10,
      font: bold,
      color: WHITE,
    });
    y -= 30;
    line("TEST LABEL of the local fake courier: not for shipping", 6.5, regular, GREY);
    rule();
    line("Sender", 7, bold, GREY);
    for (const text of label.sender) line(text, 8);
    rule();
    line("Recipient", 7, bold, GREY);
    label.recipient.forEach((text, k) => line(text, k === 0 ? 14 : 11, k === 0 ? bold : regular));
    rule();
    for (const text of label.details) line(text, 9);
    if (label.cod) {
      y -= 26;
      page!.drawRectangle({ x: left, y, width, height: 22, borderColor: BLACK, borderWidth: 2 });
      page!.drawText(fitText(`COD ${label.cod}`, bold, 14, width - 12), {
        x: left + 6,
        y: y + 6,
        size: 14,
        font: bold,
      });
    }
    const image = await doc.embedPng(await barcodePng(label.barcode));
    const zoom = Math.min(1.5, width / (image.width / 3));
    const [bw, bh] = [(image.width / 3) * zoom, (image.height / 3) * zoom];
    page!.drawImage(image, { x: x + (w - bw) / 2, y: bottom + MARGIN + 18, width: bw, height: bh });
    const number = fitText(label.barcodeText, bold, 14, width);
    page!.drawText(number, {
      x: x + (w - bold.widthOfTextAtSize(number, 14)) / 2,
      y: bottom + MARGIN + 2,
      size: 14,
      font: bold,
    });
  }
  return doc.save();
}

/** Every text drawn on each page of a PDF pdf-lib wrote with the standard fonts (WinAnsi hex strings), for tests. */
export async function drawnTexts(pdf: Uint8Array): Promise<string[][]> {
  const doc = await PDFDocument.load(pdf);
  return doc.getPages().map((page) => {
    const contents = page.node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : [contents];
    const content = streams
      .map((s) => {
        if (!(s instanceof PDFRawStream)) return "";
        const flate = s.dict.lookup(PDFName.of("Filter")) === PDFName.of("FlateDecode");
        return Buffer.from(flate ? inflateSync(s.contents) : s.contents).toString("latin1");
      })
      .join("\n");
    return Array.from(content.matchAll(/<([0-9A-Fa-f]*)> Tj/g), ([, hex]) =>
      Buffer.from(hex!, "hex").toString("latin1"),
    );
  });
}
