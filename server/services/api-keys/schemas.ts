import { z } from "zod";
import { API_KEY_KINDS } from "@/db/schema/api-keys";
import { API_KEY_PERMISSIONS } from "@/lib/api-key-permissions";
import { millisTime } from "@/server/time";

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

const ORIGIN_MESSAGE =
  "is not an exact origin: https://host[:port], or http:// only for localhost, *.localhost, 127.0.0.1 or [::1]";
const MAX_ORIGINS = 20;

/** Hosts a shop's developer runs on their own machine: the only ones a publishable key may name over plain http. */
const isLocalHost = (hostname: string) =>
  hostname === "localhost" || hostname.endsWith(".localhost") || hostname === "127.0.0.1" || hostname === "[::1]";

const parseUrl = (value: string): URL | null => {
  try {
    return new URL(value);
  } catch {
    return null;
  }
};

/**
 * One origin a publishable key is answered to, as a browser sends it in `Origin`: scheme, host and port, nothing
 * else (no path, query, wildcard or credentials), so a comparison with the header is exact. Case and a default port
 * are normalised the way browsers send them (`https://Shop.example:443` → `https://shop.example`).
 */
export const allowedOrigin = z
  .string({ error: "must be an origin such as https://shop.example" })
  .trim()
  .max(200, "must be an origin of at most 200 characters")
  .transform((value, ctx) => {
    const url = /^https?:\/\/[^/?#@*\s\\]+\/?$/i.test(value) ? parseUrl(value) : null;
    if (!url || !(url.protocol === "https:" || isLocalHost(url.hostname))) {
      // Named, since a list of origins is checked at once and its field names only a position in it.
      ctx.addIssue({ code: "custom", message: `${JSON.stringify(value.slice(0, 100))} ${ORIGIN_MESSAGE}` });
      return z.NEVER;
    }
    return url.origin;
  });

export const allowedOrigins = z
  .array(allowedOrigin, { error: "allowedOrigins must be an array of origins" })
  .min(1, "a publishable key needs 1 to 20 allowedOrigins")
  .max(MAX_ORIGINS, "a publishable key needs 1 to 20 allowedOrigins")
  .transform((origins) => [...new Set(origins)]);

export const apiKeyKind = z.enum(API_KEY_KINDS, { error: 'kind must be "secret" or "publishable"' });

export const createApiKeyInput = z
  .object({
    accountId: z.string().optional().describe("Defaults to the caller's only account."),
    name: apiKeyName,
    kind: apiKeyKind
      .optional()
      .describe(
        "`secret` (default): for servers. `publishable` (`svc_pk_…`): safe in a web page; may only search pickup points, from `allowedOrigins`.",
      ),
    allowedOrigins: allowedOrigins
      .optional()
      .describe(
        "Publishable keys only (required there, 1 to 20): exact origins such as `https://shop.example`; http only for localhost.",
      ),
    preventDuplicateOrders: z.boolean().optional(),
    permissions: z.array(permissionSchema).optional(),
    rateLimitPerMinute: rateLimitPerMinute.optional(),
  })
  .superRefine((input, ctx) => {
    if (input.kind === "publishable") {
      if (!input.allowedOrigins)
        ctx.addIssue({
          code: "custom",
          path: ["allowedOrigins"],
          message: "a publishable key needs 1 to 20 allowedOrigins",
        });
      for (const field of ["permissions", "preventDuplicateOrders"] as const)
        if (input[field] !== undefined)
          ctx.addIssue({ code: "custom", path: [field], message: "a publishable key may only search pickup points" });
    } else if (input.allowedOrigins !== undefined) {
      ctx.addIssue({ code: "custom", path: ["allowedOrigins"], message: "only a publishable key has allowedOrigins" });
    }
  });

export const updateApiKeyInput = z.object({
  name: apiKeyName.optional(),
  preventDuplicateOrders: z.boolean().optional(),
  permissions: z.array(permissionSchema).optional(),
  rateLimitPerMinute: rateLimitPerMinute.optional(),
  allowedOrigins: allowedOrigins.optional().describe("Publishable keys only: replaces the key's origins."),
});

/** An API key as lists show it: masked. */
export const apiKeyView = z.object({
  id: z.uuid(),
  name: z.string(),
  key: z.string().describe("Masked: `svc_****` (`svc_pk_****` for a publishable key) and the key's last 4 characters."),
  kind: apiKeyKind,
  allowedOrigins: z.array(z.string()).describe("The origins a publishable key is answered to; empty for a secret key."),
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
