import { badField } from "@/server/errors";
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

/** What a profile's courier refuses in a create or a change (the OpenAPI examples show these very errors). */
export const profileRefusals = {
  unknownCourier: (courier: string) => badField("courier", `unknown courier ${courier}`),
  unknownService: (courier: string, service: string) =>
    badField("service", `the ${courier} courier has no service ${service}`),
};
