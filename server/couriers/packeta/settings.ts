import { z } from "zod";

/** A Packeta courier profile's settings (the contract's table); unknown keys are refused. */
export const packetaSettings = z.strictObject({
  apiPassword: z
    .string()
    .length(32, "apiPassword must be the 32-character API password from the Packeta client section"),
  sender: z.string().min(1).max(64).describe("The e-shop's sender label at Packeta (`eshop` of each packet)."),
  homeDeliveryCarriers: z
    .record(z.string().regex(/^[A-Z]{2}$/, "a country code (ISO 3166-1 alpha-2)"), z.number().int().positive())
    .optional()
    .describe("Country → Packeta carrier id, for service HOME."),
  timeoutMs: z.number().int().min(1000).max(60_000).optional(),
});

export type PacketaSettings = z.infer<typeof packetaSettings>;
