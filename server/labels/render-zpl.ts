import type { LabelParcel } from "./render-labels";

/**
 * ZPL II for 203 dpi (8 dots/mm) thermal printers such as Zebra's, one `^XA … ^XZ` label per parcel on
 * the common 4 × 6 in stock (812 × 1218 dots). It carries what the PDF label carries, and the shipping
 * number as a Code 128 barcode (`^BC`) the printer draws itself, so it scans at the printer's full resolution.
 */
export function renderZplLabels(parcels: LabelParcel[]): string {
  if (parcels.length === 0) throw new Error("no parcels");
  return parcels.map(zplLabel).join("\n");
}

const WIDTH = 812;
const HEIGHT = 1218;
const MARGIN = 30;
const CONTENT = WIDTH - 2 * MARGIN;

function zplLabel(p: LabelParcel): string {
  const lines: string[] = [];
  let y = MARGIN;
  /** One line of text in the printer's scalable font (`^A0`), cut to the width by the printer (`^FB`, one line). */
  const text = (value: string, size: number, options: { x?: number; width?: number; reverse?: boolean } = {}) => {
    lines.push(
      `^FO${options.x ?? MARGIN},${y}^A0N,${size},${size}^FB${options.width ?? CONTENT},1,0,L,0${options.reverse ? "^FR" : ""}${field(value)}`,
    );
    y += Math.round(size * 1.2);
  };
  const rule = () => {
    y += 6;
    lines.push(`^FO${MARGIN},${y}^GB${CONTENT},3,3^FS`);
    y += 14;
  };

  lines.push("^XA", "^CI28", `^PW${WIDTH}`, `^LL${HEIGHT}`, "^LH0,0");
  // Service inverted at the top right, as on the PDF, so sorters spot it at a glance.
  const serviceWidth = 260;
  lines.push(`^FO${WIDTH - MARGIN - serviceWidth},${y}^GB${serviceWidth},56,56^FS`);
  const top = y;
  y += 10;
  text(p.service, 40, { x: WIDTH - MARGIN - serviceWidth + 10, width: serviceWidth - 20, reverse: true });
  y = top;
  text(p.courierName, 48, { width: CONTENT - serviceWidth - 20 });
  rule();

  text("FROM", 22);
  const s = p.sender;
  text([s.name, s.company].filter(Boolean).join(", "), 26);
  for (const line of [s.street, joinNonEmpty(" ", s.zip, s.city), s.country]) if (line) text(line, 24);
  rule();

  text("TO", 22);
  const r = p.recipient;
  text(r.name, 46);
  if (r.company) text(r.company, 36);
  if (r.street) text(r.street, 36);
  const zipCity = joinNonEmpty(" ", r.zip, r.city);
  if (zipCity) text(zipCity, 42);
  if (r.country) text(r.country, 36);
  if (r.phone) text(`Tel. ${r.phone}`, 32);
  rule();

  const parcelOf = `Parcel ${p.parcelIndex} / ${p.parcelCount}`;
  const parcelLine = y;
  text(`Ref. ${p.referenceNumber}`, 34, { width: CONTENT - 260 });
  y = parcelLine;
  lines.push(`^FO${WIDTH - MARGIN - 250},${y}^A0N,36,36^FB250,1,0,R,0${field(parcelOf)}`);
  y += 43;
  text(`Weight ${formatWeight(p.weightKg)} kg`, 32);
  if (p.pickupPoint) text(`Pickup point: ${p.pickupPoint}`, 32);
  y += 10;
  if (p.codPrice) {
    lines.push(`^FO${MARGIN},${y}^GB${CONTENT},80,6^FS`);
    y += 20;
    text(`COD ${joinNonEmpty(" ", p.codPrice, p.codCurrency)}`, 46, { x: MARGIN + 20, width: CONTENT - 40 });
  } else {
    text("No COD", 32);
  }

  // Anchored to the bottom, as on the PDF: 3-dot modules (0.375 mm), 200 dots tall, the number printed below.
  const barcodeTop = HEIGHT - MARGIN - 200 - 40;
  lines.push(`^FO${MARGIN},${barcodeTop - 70}^A0N,56,56^FB${CONTENT},1,0,C,0${field(p.shippingNumber)}`);
  lines.push(`^BY3,3,200^FO${MARGIN + 40},${barcodeTop}^BCN,200,Y,N,N,A${field(p.shippingNumber)}`);
  lines.push("^XZ");
  return lines.join("\n");
}

/**
 * `^FD…^FS` with `^FH` hex escapes for the characters ZPL reads as commands (`^`, `~`) and for the escape
 * character itself, so no partner text can end the field or inject a command.
 */
function field(value: string): string {
  const escaped = value.replace(/[\\^~]/g, (c) => `\\${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
  return `^FH\\^FD${escaped}^FS`;
}

function joinNonEmpty(separator: string, ...parts: (string | null | undefined)[]): string {
  return parts.filter((part): part is string => !!part && part.trim() !== "").join(separator);
}

function formatWeight(kg: number): string {
  return String(Math.round(kg * 1000) / 1000);
}
