import { DIRECTORY_COURIERS } from "@/server/pickup-points/directory-couriers";
import { exactOrigin } from "./origin";

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
};

type Params = Record<string, string | string[] | undefined>;

const one = (params: Params, name: string): string | undefined => {
  const value = params[name];
  return Array.isArray(value) ? value[0] : value;
};

/** The dialog page's options, or null when the key or the origin is missing or malformed. */
export function widgetOptions(params: Params): WidgetOptions | null {
  const key = one(params, "key");
  const origin = exactOrigin(one(params, "origin"));
  if (!key || !origin) return null;
  const asked = (one(params, "couriers") ?? "").split(",").filter(Boolean);
  const couriers = DIRECTORY_COURIERS.filter((c) => asked.length === 0 || asked.includes(c));
  const country = one(params, "country");
  const weightKg = Number(one(params, "weightKg"));
  return {
    key,
    origin,
    couriers: couriers.length ? couriers : [...DIRECTORY_COURIERS],
    ...(country && /^[A-Za-z]{2}$/.test(country) ? { country: country.toUpperCase() } : {}),
    ...(weightKg > 0 && weightKg <= 1000 ? { weightKg } : {}),
    ...(one(params, "cod") === "true" ? { cod: true } : {}),
  };
}

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
