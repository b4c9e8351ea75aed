import { describe, expect, it } from "vitest";
import type { LabelParcel } from "./render-labels";
import { renderZplLabels } from "./render-zpl";

const parcel = (overrides: Partial<LabelParcel> = {}): LabelParcel => ({
  shippingNumber: "SBX0000000042",
  parcelIndex: 1,
  parcelCount: 2,
  weightKg: 2.5,
  referenceNumber: "ORDER-2024-0001",
  service: "STANDARD",
  courierName: "Sandbox courier",
  codPrice: "499.00",
  codCurrency: "CZK",
  pickupPoint: null,
  sender: { name: "Acme e-shop s.r.o." },
  recipient: {
    name: "Jana Nováková",
    street: "Dlouhá 12",
    zip: "110 00",
    city: "Praha",
    country: "CZ",
    phone: "+420601234567",
  },
  ...overrides,
});

type ZplField = { command: string; data: string };
type ZplLabel = { commands: string[]; fields: ZplField[]; barcodes: ZplField[] };

/**
 * A small ZPL II reader: splits `^XA … ^XZ` labels into commands and pairs each `^FD` with the command that
 * formats it (`^A0` text, `^BC` Code 128), decoding `^FH\` hex escapes as a printer does.
 */
function parseZpl(zpl: string): ZplLabel[] {
  const labels: ZplLabel[] = [];
  let current: ZplLabel | null = null;
  let hexIndicator: string | null = null;
  let formatting = "";
  for (const raw of zpl.split("^").slice(1)) {
    const command = raw.replace(/\n$/, "");
    const name = command.slice(0, 2);
    if (name === "XA") current = { commands: [], fields: [], barcodes: [] };
    if (!current) throw new Error(`command ^${command} outside a label`);
    current.commands.push(command);
    if (name === "A0" || name === "BC") formatting = name;
    else if (name === "FH") hexIndicator = command.slice(2) || "_";
    else if (name === "FD") {
      let data = command.slice(2);
      if (hexIndicator) {
        const h = hexIndicator.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        data = data.replace(new RegExp(`${h}([0-9A-Fa-f]{2})`, "g"), (_, hex: string) =>
          String.fromCharCode(parseInt(hex, 16)),
        );
      }
      (formatting === "BC" ? current.barcodes : current.fields).push({ command: formatting, data });
    } else if (name === "FS") {
      hexIndicator = null;
      formatting = "";
    } else if (name === "XZ") {
      labels.push(current);
      current = null;
    }
  }
  if (current) throw new Error("label not closed with ^XZ");
  return labels;
}

describe("renderZplLabels", () => {
  it("writes one 203 dpi label per parcel with a Code 128 barcode of its shipping number", () => {
    const labels = parseZpl(
      renderZplLabels([
        parcel({ shippingNumber: "SBX0000000042", parcelIndex: 1 }),
        parcel({ shippingNumber: "SBX0000000043", parcelIndex: 2 }),
      ]),
    );
    expect(labels).toHaveLength(2);
    labels.forEach((label, i) => {
      const number = `SBX00000000${42 + i}`;
      expect(label.commands).toEqual(expect.arrayContaining(["CI28", "PW812", "LL1218"]));
      expect(label.barcodes).toEqual([{ command: "BC", data: number }]);
      const bc = label.commands.find((c) => c.startsWith("BC"))!;
      // Normal orientation, 200 dots tall, the number printed under the bars, automatic subset switching.
      expect(bc).toBe("BCN,200,Y,N,N,A");
      expect(label.commands.find((c) => c.startsWith("BY"))).toBe("BY3,3,200");
      expect(label.fields.map((f) => f.data)).toEqual(
        expect.arrayContaining([
          "Sandbox courier",
          "STANDARD",
          "Acme e-shop s.r.o.",
          "Jana Nováková",
          "Dlouhá 12",
          "110 00 Praha",
          "CZ",
          "Tel. +420601234567",
          "Ref. ORDER-2024-0001",
          `Parcel ${i + 1} / 2`,
          "Weight 2.5 kg",
          "COD 499.00 CZK",
          number,
        ]),
      );
    });
  });

  it("escapes partner text so it cannot end a field or start a command", () => {
    const [label] = parseZpl(
      renderZplLabels([parcel({ recipient: { name: "A^XZ^XA~JA \\ B" }, referenceNumber: "R^1", codPrice: null })]),
    );
    expect(label!.fields.map((f) => f.data)).toEqual(expect.arrayContaining(["A^XZ^XA~JA \\ B", "Ref. R^1", "No COD"]));
    expect(label!.commands.filter((c) => c === "XZ")).toHaveLength(1);
  });

  it("refuses to render nothing", () => {
    expect(() => renderZplLabels([])).toThrow("no parcels");
  });
});
