/** A publishable key's origins as typed in one field: separated by spaces, commas or new lines. */
export const splitOrigins = (text: string): string[] => text.split(/[\s,]+/).filter(Boolean);

export const ORIGINS_HINT =
  "The shop's origins, separated by spaces or commas, e.g. https://shop.example (http only for localhost).";
