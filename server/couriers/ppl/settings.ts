import { z } from "zod";

/**
 * A PPL courier profile's settings (the contract's table); unknown keys are refused. There is no `depot`: PPL's
 * `ShipmentModel.depot` says "Nepoužívat" (do not use).
 */
export const pplSettings = z.strictObject({
  clientId: z.string().min(1).max(100).describe("The CPL API client id PPL issued to the e-shop."),
  clientSecret: z.string().min(1).max(200).describe("The CPL API client secret (write-only)."),
  // Optional rather than defaulted, so a stored profile without it stays valid as it is: undefined is production.
  environment: z
    .enum(["production", "test"])
    .optional()
    .describe("`production` (default): COURIER_PPL_URL; `test`: PPL's sandbox at COURIER_PPL_TEST_URL."),
  timeoutMs: z.number().int().min(1000).max(60_000).optional(),
});

export type PplSettings = z.infer<typeof pplSettings>;
