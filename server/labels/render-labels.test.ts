import { inflateSync } from "node:zlib";
import {
  BarcodeFormat,
  BinaryBitmap,
  Code128Reader,
  DecodeHintType,
  HybridBinarizer,
  RGBLuminanceSource,
} from "@zxing/library";
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
  PDFRawStream,
  StandardFonts,
  type PDFFont,
  type PDFPage,
} from "pdf-lib";
import { describe, expect, it } from "vitest";
import { renderLabels, renderLabelsA4, type LabelAddress, type LabelParcel } from "./render-labels";

const A6 = { width: 297.64, height: 419.53 };
const MARGIN = (5 * 72) / 25.4;

const sender: LabelAddress = {
  name: "Acme e-shop s.r.o.",
  street: "Skladová 1",
  zip: "11000",
  city: "Praha",
  country: "CZ",
};
const recipient: LabelAddress = {
  name: "Jana Nováková",
  company: "Nováková & syn",
  street: "Dlouhá 12",
  zip: "60200",
  city: "Brno",
  country: "CZ",
  phone: "+420 601 234 567",
  email: "jana@example.com",
};

function parcel(overrides: Partial<LabelParcel> = {}): LabelParcel {
  return {
    shippingNumber: "SBX0000000042",
    parcelIndex: 1,
    parcelCount: 1,
    weightKg: 2.5,
    referenceNumber: "ORDER-2024-0001",
    service: "STANDARD",
    courierName: "Sandbox courier",
    codPrice: null,
    codCurrency: null,
    pickupPoint: null,
    sender,
    recipient,
    ...overrides,
  };
}

// updateMetadata: false, or loading would overwrite the producer we want to check.
const load = async (parcels: LabelParcel[]) => PDFDocument.load(await renderLabels(parcels), { updateMetadata: false });

function decodeStream(stream: PDFRawStream): Buffer {
  const filter = stream.dict.lookup(PDFName.of("Filter"));
  if (filter === undefined) return Buffer.from(stream.contents);
  if (filter === PDFName.of("FlateDecode")) return inflateSync(stream.contents);
  throw new Error(`unexpected stream filter ${String(filter)}`);
}

function pageContent(page: PDFPage): string {
  const contents = page.node.Contents();
  const streams =
    contents instanceof PDFArray ? contents.asArray().map((ref) => page.doc.context.lookup(ref)) : [contents];
  return streams.map((s) => (s instanceof PDFRawStream ? decodeStream(s).toString("latin1") : "")).join("\n");
}

function imageXObjects(page: PDFPage): { name: string; stream: PDFRawStream }[] {
  const xobjects = page.node.Resources()?.lookupMaybe(PDFName.of("XObject"), PDFDict);
  if (!xobjects) return [];
  return xobjects.entries().flatMap(([name, ref]) => {
    const stream = page.doc.context.lookup(ref);
    return stream instanceof PDFRawStream && stream.dict.lookup(PDFName.of("Subtype")) === PDFName.of("Image")
      ? [{ name: name.decodeText(), stream }]
      : [];
  });
}

/** The image's 8-bit luminance as a printer would put it on white paper (SMask composited over white). */
function luminance(image: PDFRawStream): { pixels: Uint8ClampedArray; width: number; height: number } {
  const num = (key: string) => image.dict.lookup(PDFName.of(key), PDFNumber).asNumber();
  const width = num("Width");
  const height = num("Height");
  expect(num("BitsPerComponent")).toBe(8);
  const colorSpace = image.dict.lookup(PDFName.of("ColorSpace"), PDFName).decodeText();
  const channels = { DeviceRGB: 3, DeviceGray: 1 }[colorSpace];
  if (!channels) throw new Error(`unsupported color space ${colorSpace}`);
  const data = decodeStream(image);
  expect(data.length).toBe(width * height * channels);

  const smask = image.dict.lookup(PDFName.of("SMask"));
  const alpha = smask instanceof PDFRawStream ? decodeStream(smask) : null;
  const pixels = new Uint8ClampedArray(width * height);
  for (let i = 0; i < pixels.length; i++) {
    const o = i * channels;
    const value = channels === 3 ? 0.299 * data[o] + 0.587 * data[o + 1] + 0.114 * data[o + 2] : data[o];
    const a = alpha ? alpha[i] / 255 : 1;
    pixels[i] = Math.round(value * a + 255 * (1 - a));
  }
  return { pixels, width, height };
}

function scanCode128(image: PDFRawStream) {
  const { pixels, width, height } = luminance(image);
  const bitmap = new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(pixels, width, height)));
  const hints = new Map<DecodeHintType, unknown>([
    [DecodeHintType.TRY_HARDER, true],
    [DecodeHintType.POSSIBLE_FORMATS, [BarcodeFormat.CODE_128]],
  ]);
  return new Code128Reader().decode(bitmap, hints);
}

// WinAnsi is latin1 except for 0x80–0x9F. Node 20's TextDecoder("windows-1252") decodes those as latin1
// control characters, so "…" (0x85) would come back as U+0085.
const WIN_ANSI_80_9F = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ";
const decodeWinAnsi = (bytes: Uint8Array) =>
  Array.from(bytes, (b) => (b >= 0x80 && b <= 0x9f ? WIN_ANSI_80_9F[b - 0x80] : String.fromCharCode(b))).join("");

type DrawnText = { text: string; font: string; size: number; x: number; y: number };

/** Every string pdf-lib drew on the page, decoded from the WinAnsi hex strings it writes for standard fonts. */
function drawnTexts(page: PDFPage): DrawnText[] {
  const fonts = page.node.Resources()?.lookup(PDFName.of("Font"), PDFDict);
  const baseFont = (key: string) =>
    page.doc.context
      .lookup(fonts?.get(PDFName.of(key)), PDFDict)
      .lookup(PDFName.of("BaseFont"), PDFName)
      .decodeText();
  const pattern = /\/(\S+) ([\d.]+) Tf\s[\s\S]*?1 0 0 1 ([\d.-]+) ([\d.-]+) Tm\s+<([0-9A-Fa-f]*)> Tj/g;
  return Array.from(pageContent(page).matchAll(pattern), ([, key, size, x, y, hex]) => ({
    text: decodeWinAnsi(Buffer.from(hex, "hex")),
    font: baseFont(key),
    size: Number(size),
    x: Number(x),
    y: Number(y),
  }));
}

async function standardFonts(): Promise<Record<string, PDFFont>> {
  const scratch = await PDFDocument.create();
  return {
    Helvetica: await scratch.embedFont(StandardFonts.Helvetica),
    "Helvetica-Bold": await scratch.embedFont(StandardFonts.HelveticaBold),
  };
}

describe("renderLabels", () => {
  it("renders one A6 page per parcel with document metadata", async () => {
    const doc = await load([
      parcel({ shippingNumber: "SBX0000000001", parcelIndex: 1, parcelCount: 3 }),
      parcel({ shippingNumber: "SBX0000000002", parcelIndex: 2, parcelCount: 3 }),
      parcel({ shippingNumber: "SBX0000000003", parcelIndex: 3, parcelCount: 3 }),
    ]);
    expect(doc.getPageCount()).toBe(3);
    for (const page of doc.getPages()) {
      const { width, height } = page.getSize();
      expect(Math.abs(width - A6.width)).toBeLessThanOrEqual(1);
      expect(Math.abs(height - A6.height)).toBeLessThanOrEqual(1);
    }
    expect(doc.getTitle()).toMatch(/label/i);
    expect(doc.getProducer()).toBe("Shipping order platform");
  });

  it("puts a Code 128 barcode of each page's own shipping number on that page, in input order", async () => {
    const numbers = ["SBX0000000042", "SBX0000000043", "XYZ-12345678901234"];
    const doc = await load(
      numbers.map((shippingNumber, i) => parcel({ shippingNumber, parcelIndex: i + 1, parcelCount: 3 })),
    );
    doc.getPages().forEach((page, i) => {
      const images = imageXObjects(page);
      expect(images).toHaveLength(1);
      // The image must actually be painted on the page, not just sit in its resources.
      expect(pageContent(page)).toContain(`/${images[0].name} Do`);
      const result = scanCode128(images[0].stream);
      expect(result.getBarcodeFormat()).toBe(BarcodeFormat.CODE_128);
      expect(result.getText()).toBe(numbers[i]);
      expect(drawnTexts(page).map((t) => t.text)).toContain(numbers[i]);
    });
  });

  it("shows the recipient, reference, parcel position and weight", async () => {
    const doc = await load([parcel({ parcelIndex: 2, parcelCount: 5, weightKg: 0.1 + 0.2 })]);
    const texts = drawnTexts(doc.getPage(0)).map((t) => t.text);
    expect(texts).toEqual(
      expect.arrayContaining([
        "Sandbox courier",
        "STANDARD",
        "FROM",
        "TO",
        "Acme e-shop s.r.o.",
        "Jana Nováková",
        "Nováková & syn",
        "Dlouhá 12",
        "60200 Brno",
        "Tel. +420 601 234 567",
        "Ref. ORDER-2024-0001",
        "Parcel 2 / 5",
        "Weight 0.3 kg",
        "No COD",
      ]),
    );
  });

  it("prints names outside WinAnsi without throwing, transliterating what the font cannot encode", async () => {
    const doc = await load([
      parcel({
        recipient: {
          name: "Jiří Dvořák",
          street: "Straße 5",
          zip: "90-001",
          city: "Łódź",
          country: "PL",
          phone: "☎ 123",
        },
        sender: { name: "Łukasz 🚚" },
      }),
    ]);
    const texts = drawnTexts(doc.getPage(0)).map((t) => t.text);
    expect(texts).toEqual(expect.arrayContaining(["Jirí Dvorák", "Straße 5", "90-001 Lódz", "Lukasz ?", "Tel. ? 123"]));
  });

  it("truncates overlong text with an ellipsis instead of running off the label", async () => {
    const long = "Very long street name ".repeat(14).slice(0, 300);
    const doc = await load([
      parcel({
        courierName: long,
        referenceNumber: long,
        pickupPoint: long,
        codPrice: "123456.78",
        codCurrency: "CZK",
        sender: { name: long, company: long, street: long, city: long, zip: "12345", country: long },
        recipient: { name: long, company: long, street: long, city: long, zip: "12345", country: long, phone: long },
      }),
    ]);
    expect(doc.getPageCount()).toBe(1);
    const fonts = await standardFonts();
    const drawn = drawnTexts(doc.getPage(0));
    expect(drawn.filter((t) => t.text.endsWith("…")).length).toBeGreaterThanOrEqual(8);
    for (const t of drawn) {
      const width = fonts[t.font].widthOfTextAtSize(t.text, t.size);
      expect(t.x, t.text).toBeGreaterThanOrEqual(MARGIN - 0.01);
      expect(t.x + width, t.text).toBeLessThanOrEqual(A6.width - MARGIN + 0.01);
      expect(t.y, t.text).toBeGreaterThanOrEqual(MARGIN);
    }
    // Nothing from the address blocks may reach down into the shipping number printed above the barcode.
    const number = drawn.find((t) => t.text === "SBX0000000042");
    if (!number) throw new Error("shipping number not drawn");
    for (const t of drawn.filter((d) => d !== number)) expect(t.y, t.text).toBeGreaterThan(number.y + number.size);
  });

  it("boxes the cash-on-delivery amount with its currency", async () => {
    const doc = await load([parcel({ codPrice: "1234.50", codCurrency: "CZK" }), parcel()]);
    const withCod = drawnTexts(doc.getPage(0)).map((t) => t.text);
    expect(withCod).toContain("COD 1234.50 CZK");
    expect(withCod).not.toContain("No COD");
    // A stroked rectangle (`re`/path + `S`) around it; the page without COD has only the section rules.
    const strokes = (page: PDFPage) => pageContent(page).match(/^S$/gm)?.length ?? 0;
    expect(strokes(doc.getPage(0))).toBeGreaterThan(strokes(doc.getPage(1)));

    const without = drawnTexts(doc.getPage(1)).map((t) => t.text);
    expect(without).toContain("No COD");
    expect(without.some((t) => t.startsWith("COD"))).toBe(false);
  });

  it("shows the pickup point when there is one", async () => {
    const doc = await load([parcel({ service: "PICKUP_POINT", pickupPoint: "Z-BOX Brno, Dlouhá 12" })]);
    expect(drawnTexts(doc.getPage(0)).map((t) => t.text)).toContain("Pickup point: Z-BOX Brno, Dlouhá 12");
  });

  it("refuses an empty batch", async () => {
    await expect(renderLabels([])).rejects.toThrow("no parcels");
  });
});

describe("renderLabelsA4", () => {
  const A4 = { width: 595.28, height: 841.89 };

  it("puts four labels on each A4 sheet, each with its own scannable barcode, in input order", async () => {
    const numbers = Array.from({ length: 5 }, (_, i) => `SBX00000001${String(i).padStart(2, "0")}`);
    const doc = await PDFDocument.load(
      await renderLabelsA4(
        numbers.map((shippingNumber, i) => parcel({ shippingNumber, parcelIndex: i + 1, parcelCount: 5 })),
      ),
      { updateMetadata: false },
    );
    expect(doc.getPageCount()).toBe(2);
    for (const page of doc.getPages()) {
      expect(page.getWidth()).toBeCloseTo(A4.width, 0);
      expect(page.getHeight()).toBeCloseTo(A4.height, 0);
    }
    const scanned = doc
      .getPages()
      .flatMap((page) => imageXObjects(page).map((image) => scanCode128(image.stream).getText()));
    expect(scanned).toEqual(numbers);
    // Reading order on the sheet: top left, top right, bottom left, bottom right.
    const positions = drawnTexts(doc.getPage(0))
      .filter((t) => numbers.includes(t.text))
      .map((t) => ({ text: t.text, left: t.x < A4.width / 2, top: t.y > A4.height / 2 }));
    expect(positions).toEqual([
      { text: numbers[0], left: true, top: true },
      { text: numbers[1], left: false, top: true },
      { text: numbers[2], left: true, top: false },
      { text: numbers[3], left: false, top: false },
    ]);
  });
});
