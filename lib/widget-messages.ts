/** What the dialog page posts to the shop's page (the widget script accepts only these, only from the page). */
export const WIDGET_MESSAGES = { picked: "svc-pickup-points:picked", closed: "svc-pickup-points:closed" } as const;

/** The point the shop's callback gets: what a checkout stores and shows, nothing more. */
export type PickedPoint = {
  courier: string;
  id: string;
  type: string;
  name: string;
  street: string;
  city: string;
  zip: string;
  country: string;
};

/** The options `SvcPickupPoints.pick` passes the dialog page in its query. */
export type WidgetOptions = {
  key: string;
  /** The shop page's origin: the only page that may frame the dialog and receive its messages. */
  origin: string;
  couriers: string[];
  country?: string;
  weightKg?: number;
  cod?: boolean;
  /** The checkout's zip and town, so the list opens on the shopper's neighbourhood rather than the whole country. */
  zip?: string;
  city?: string;
};

/** What the dialog's search starts from: the checkout's zip (the more exact), else its town, else nothing. */
export const startingPlace = (options: Pick<WidgetOptions, "zip" | "city">): string | undefined =>
  options.zip ?? options.city;

export const pickedPoint = (p: PickedPoint): PickedPoint => ({
  courier: p.courier,
  id: p.id,
  type: p.type,
  name: p.name,
  street: p.street,
  city: p.city,
  zip: p.zip,
  country: p.country,
});
