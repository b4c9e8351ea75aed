import { z } from "zod";
import { renderLabels, renderLabelsA4, type LabelParcel } from "./render-labels";
import { renderZplLabels } from "./render-zpl";

export const LABEL_FORMATS = ["pdf-a6", "pdf-a4", "zpl"] as const;
export type LabelFormat = (typeof LABEL_FORMATS)[number];
export const DEFAULT_LABEL_FORMAT: LabelFormat = "pdf-a6";

export const labelFormatSchema = z
  .enum(LABEL_FORMATS, { error: `must be one of ${LABEL_FORMATS.join(", ")}` })
  .default(DEFAULT_LABEL_FORMAT)
  .describe(
    "`pdf-a6` (default): a PDF with one A6 page per parcel. `pdf-a4`: a PDF with four A6 labels per A4 sheet. " +
      "`zpl`: ZPL II for 203 dpi thermal printers (Zebra), one label per parcel on 4 × 6 in stock, barcode drawn by the printer (`^BC`).",
  );

export const ZPL_MEDIA_TYPE = "application/x-zpl";

export type LabelDocument = { body: Uint8Array; contentType: string; extension: "pdf" | "zpl" };

export async function renderLabelDocument(parcels: LabelParcel[], format: LabelFormat): Promise<LabelDocument> {
  switch (format) {
    case "pdf-a6":
      return { body: await renderLabels(parcels), contentType: "application/pdf", extension: "pdf" };
    case "pdf-a4":
      return { body: await renderLabelsA4(parcels), contentType: "application/pdf", extension: "pdf" };
    case "zpl":
      return {
        body: new TextEncoder().encode(renderZplLabels(parcels)),
        contentType: ZPL_MEDIA_TYPE,
        extension: "zpl",
      };
  }
}
