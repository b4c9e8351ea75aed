// No imports: the widget's dialog (a client component) and the search routes both read it.

/** The couriers whose pickup-point directories the platform keeps (contract "Pickup points" → "Directory"). */
export const DIRECTORY_COURIERS = ["packeta", "ppl"] as const;
export type DirectoryCourier = (typeof DIRECTORY_COURIERS)[number];
