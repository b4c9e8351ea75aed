/**
 * The order request (PascalCase, as partners send it) from the form. Values are passed on as typed, so
 * the server's rules (not the browser's) decide what is wrong: an empty input is left out (the server
 * says "is required" where it is), a number that does not parse is sent as text (it says "must be a number").
 */

const text = (data: FormData, name: string): string | undefined => {
  const value = String(data.get(name) ?? "").trim();
  return value === "" ? undefined : value;
};

const number = (data: FormData, name: string): number | string | undefined => {
  const value = text(data, name);
  if (value === undefined) return undefined;
  const normalised = value.replace(",", ".");
  return /^-?\d+(\.\d+)?$/.test(normalised) ? Number(normalised) : value;
};

/** Drops undefined values so the JSON sent (and recorded) shows only what was filled in. */
const defined = (record: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));

export type OrderChoices = {
  parcelCount: number;
  source: { referenceSource: string; sourceIdentifier: string } | null;
  service: string;
  codCurrency: string;
};

export function buildOrder(data: FormData, choices: OrderChoices): Record<string, unknown> {
  return defined({
    ReferenceNumber: text(data, "ReferenceNumber"),
    ReferenceSource: choices.source?.referenceSource,
    SourceIdentifier: choices.source?.sourceIdentifier,
    Service: choices.service || undefined,
    PickupPoint: text(data, "PickupPoint"),
    Recipient: defined({
      Name: text(data, "Recipient.Name"),
      Company: text(data, "Recipient.Company"),
      Street: text(data, "Recipient.Street"),
      City: text(data, "Recipient.City"),
      Zip: text(data, "Recipient.Zip"),
      Country: text(data, "Recipient.Country"),
      Email: text(data, "Recipient.Email"),
      Phone: text(data, "Recipient.Phone"),
    }),
    Parcels: Array.from({ length: choices.parcelCount }, (_, i) =>
      defined({ Weight: number(data, `Parcels[${i}].Weight`) }),
    ),
    CodPrice: number(data, "CodPrice"),
    CodCurrency: text(data, "CodPrice") !== undefined ? choices.codCurrency || undefined : undefined,
  });
}
