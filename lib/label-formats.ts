/** Labels one document holds at most (`GET /labels` and the dashboard's print of chosen orders). */
export const MAX_LABELS = 100;

/** The label formats the dashboard offers, as the label routes name them (`?format=`). */
export const LABEL_FORMATS = [
  { id: "pdf-a6", name: "PDF, A6 (one label per page)", extension: "pdf" },
  { id: "pdf-a4", name: "PDF, A4 (four labels per sheet)", extension: "pdf" },
  { id: "zpl", name: "ZPL for thermal printers (203 dpi)", extension: "zpl" },
] as const;

export type LabelFormat = (typeof LABEL_FORMATS)[number];
export type LabelFormatId = LabelFormat["id"];

export const labelFormat = (id: LabelFormatId): LabelFormat => LABEL_FORMATS.find((f) => f.id === id)!;

/** The dashboard's one document of several orders' labels: every parcel's number, in the orders' order. */
export const labelsUrl = (accountId: string, orders: { shippingNumber: string[] }[], format: LabelFormatId): string =>
  `/dashboard/orders/labels?account=${encodeURIComponent(accountId)}&format=${format}&shippingNumbers=${orders
    .flatMap((o) => o.shippingNumber)
    .map(encodeURIComponent)
    .join(",")}`;
