import { DIRECTORY_COURIERS } from "@/server/pickup-points/directory-couriers";
import type { WidgetOptions } from "@/lib/widget-messages";
import { exactOrigin } from "./origin";

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
  const zip = one(params, "zip")?.trim();
  const city = one(params, "city")?.trim();
  return {
    key,
    origin,
    couriers: couriers.length ? couriers : [...DIRECTORY_COURIERS],
    ...(country && /^[A-Za-z]{2}$/.test(country) ? { country: country.toUpperCase() } : {}),
    ...(weightKg > 0 && weightKg <= 1000 ? { weightKg } : {}),
    ...(one(params, "cod") === "true" ? { cod: true } : {}),
    // Bounded as the search's own `q` is: a place the shopper could have typed, nothing longer.
    ...(zip && zip.length <= 16 ? { zip } : {}),
    ...(city && city.length <= 100 ? { city } : {}),
  };
}
