import { z } from "zod";

/** One finding about an order, as the validation, the couriers' mappings and both doors report it. */
export const messageSchema = z.object({
  code: z
    .string()
    .describe(
      "e.g. REQUIRED, INVALID_FORMAT, TOO_LONG, OUT_OF_RANGE, UNSUPPORTED_COUNTRY, WEIGHT_LIMIT_EXCEEDED, COD_NOT_SUPPORTED, SOURCE_PAIR_INCOMPLETE, DUPLICATE_IN_REQUEST, NO_RECIPIENT_CONTACT (warning). " +
        "Pickup points (Packeta PICKUP_POINT, PPL PARCELSHOP; with `suggestions`): PICKUP_POINT_UNKNOWN, PICKUP_POINT_CLOSED, " +
        "PICKUP_POINT_COUNTRY (at PickupPoint), PICKUP_POINT_NO_COD (CodPrice), PICKUP_POINT_TOO_HEAVY (Parcels[i].Weight), " +
        "PICKUP_POINT_TOO_LARGE (Parcels[i]); warning PICKUP_POINT_NOT_VERIFIED while the courier's directory was never synced. " +
        "Packeta HOME against its carrier: CARRIER_UNKNOWN, CARRIER_UNAVAILABLE (Recipient.Country), REQUIRED (Recipient.Phone, " +
        "Recipient.Email, a house number in Recipient.Street, Parcels[i] size), COD_NOT_SUPPORTED, WEIGHT_LIMIT_EXCEEDED; " +
        "warning CARRIER_NOT_VERIFIED while Packeta's carrier list was never synced",
    ),
  severity: z.enum(["ERROR", "WARNING"]),
  field: z.string().nullable().describe("Path of the field at fault, e.g. `Recipient.Zip` or `Parcels[0].Weight`."),
  message: z.string(),
  suggestions: z
    .array(
      z.object({
        value: z.string().describe("A value the field could take instead (a pickup point's id)"),
        text: z.string().describe("What it is, for a person (a point's name, address and distance)"),
      }),
    )
    .optional()
    .describe(
      "Values the field could take instead, best first (pickup points: up to 3 nearest that would accept the order)",
    ),
});

export type ValidationMessage = z.infer<typeof messageSchema>;

export const error = (code: string, field: string | null, message: string): ValidationMessage => ({
  code,
  severity: "ERROR",
  field,
  message,
});
