import { z } from "zod";
import { millisTime } from "@/server/time";

export const API_KEY_PERMISSIONS = [
  "shipping-orders:read",
  "shipping-orders:write",
  "shipping-orders:validate",
  "labels:read",
  "configurations:read",
  "events:read",
  "statistics:read",
] as const;

export type ApiKeyPermission = (typeof API_KEY_PERMISSIONS)[number];

export const permissionSchema = z.enum(API_KEY_PERMISSIONS);

export const apiKeyName = z
  .string({ error: "name is required" })
  .trim()
  .min(1, "name must have 1 to 100 characters")
  .max(100, "name must have 1 to 100 characters");

const RATE_LIMIT_MESSAGE = "rateLimitPerMinute must be a whole number from 1 to 100000";

export const rateLimitPerMinute = z
  .number({ error: RATE_LIMIT_MESSAGE })
  .int(RATE_LIMIT_MESSAGE)
  .min(1, RATE_LIMIT_MESSAGE)
  .max(100_000, RATE_LIMIT_MESSAGE);

export const createApiKeyInput = z.object({
  accountId: z.string().optional().describe("Defaults to the caller's only account."),
  name: apiKeyName,
  preventDuplicateOrders: z.boolean().optional(),
  permissions: z.array(permissionSchema).optional(),
  rateLimitPerMinute: rateLimitPerMinute.optional(),
});

export const updateApiKeyInput = z.object({
  name: apiKeyName.optional(),
  preventDuplicateOrders: z.boolean().optional(),
  permissions: z.array(permissionSchema).optional(),
  rateLimitPerMinute: rateLimitPerMinute.optional(),
});

/** An API key as lists show it: masked. */
export const apiKeyView = z.object({
  id: z.uuid(),
  name: z.string(),
  key: z.string().describe("Masked: `svc_****` and the key's last 4 characters."),
  created: millisTime,
  lastUsed: millisTime.nullable().describe("UTC, `yyyy-MM-ddTHH:mm:ss.fff`; null when never used"),
  permissions: z.array(permissionSchema),
  preventDuplicateOrders: z.boolean(),
  rateLimitPerMinute: z.number().int(),
});

export const createdApiKeyView = apiKeyView.omit({ lastUsed: true }).extend({
  key: z.string().describe("The full key. It is shown only in this response; store it now."),
});

export type ApiKeyView = z.infer<typeof apiKeyView>;
export type CreatedApiKeyView = z.infer<typeof createdApiKeyView>;
