import { AppError, badField } from "@/server/errors";
import { z } from "zod";

export const createCourierProfileInput = z.object({
  accountId: z.string().optional().describe("Defaults to the caller's only account."),
  courier: z.string({ error: "courier is required" }).min(1, "courier is required"),
  name: z
    .string({ error: "name is required" })
    .trim()
    .min(1, "name must have 1 to 100 characters")
    .max(100, "name must have 1 to 100 characters"),
  service: z.string().trim().min(1).max(32).nullish(),
  isDefault: z.boolean().optional(),
  settings: z.record(z.string(), z.unknown()).optional(),
});

export const updateCourierProfileInput = z
  .object({
    name: createCourierProfileInput.shape.name.optional(),
    service: z.string().trim().min(1).max(32).nullish().describe("null: the courier's first service."),
    settings: z.record(z.string(), z.unknown()).optional().describe("Replaces the settings as a whole."),
  })
  .strict()
  .refine((v) => v.name !== undefined || v.service !== undefined || v.settings !== undefined, {
    message: "give name, service or settings",
    path: ["body"],
  });

export const courierProfileView = z.object({
  id: z.uuid(),
  courier: z.string(),
  name: z.string(),
  service: z
    .string()
    .nullable()
    .describe("Default service of orders created with this profile; null means the courier's first service."),
  isDefault: z.boolean(),
  settings: z.record(z.string(), z.unknown()),
});

export type CourierProfileView = z.infer<typeof courierProfileView>;

/**
 * Profiles (not archived) one account may have of one courier. A shop needs a few (a warehouse, a brand each), and
 * every profile is checked, synced and listed on its own: the cap keeps that work bounded per account.
 */
export const PROFILES_PER_COURIER = 20;

/** What a profile's courier refuses in a create or a change (the OpenAPI examples show these very errors). */
export const profileRefusals = {
  unknownCourier: (courier: string) => badField("courier", `unknown courier ${courier}`),
  unknownService: (courier: string, service: string) =>
    badField("service", `the ${courier} courier has no service ${service}`),
  tooMany: (courier: string) => {
    const message = `an account has at most ${PROFILES_PER_COURIER} ${courier} profiles: delete one before creating another`;
    return new AppError("conflict", `courier: ${message}`, { errors: [{ field: "courier", message }] });
  },
};
