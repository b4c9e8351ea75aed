import { z } from "zod";
import type { WebhookDeliveryRow, WebhookEndpointRow } from "@/db/schema";
import { formatMillis } from "@/server/time";
import { ORDER_EVENT_TYPES } from "@/lib/event-types";
import { orderEventType, TEST_EVENT_TYPE } from "../events/event-types";

const sourcePair = z.object({
  referenceSource: z
    .string({ error: "referenceSource is required" })
    .trim()
    .min(1, "referenceSource must have 1 to 100 characters")
    .max(100, "referenceSource must have 1 to 100 characters"),
  sourceIdentifier: z
    .string({ error: "sourceIdentifier is required" })
    .trim()
    .min(1, "sourceIdentifier must have 1 to 100 characters")
    .max(100, "sourceIdentifier must have 1 to 100 characters"),
});

const url = z
  .string({ error: "url is required" })
  .trim()
  .min(1, "url is required")
  .describe(
    "Where events are POSTed: `https://` on a public address (plain `http://` and private, loopback or link-local addresses only when the server runs with `WEBHOOK_ALLOW_PRIVATE_TARGETS=true`).",
  );

const description = z
  .string()
  .max(500, "description must have at most 500 characters")
  .nullable()
  .describe("Free text for the partner, at most 500 characters.");

const eventTypes = z
  .array(orderEventType, { error: `eventTypes must be a list of ${ORDER_EVENT_TYPES.join(", ")}` })
  .min(1, "eventTypes must list at least one type (omit it for every type)")
  .transform((types) => [...new Set(types)])
  .describe("The event types the endpoint receives; omitted on create: every type.");

const sources = z
  .array(sourcePair)
  .min(1, "sources must list at least one pair (omit it, or send null, for every pair)")
  .max(100, "sources must list at most 100 pairs")
  .nullable()
  .transform((pairs) =>
    pairs
      ? [...new Map(pairs.map((p) => [JSON.stringify([p.referenceSource, p.sourceIdentifier]), p])).values()]
      : null,
  )
  .describe("The source pairs whose events the endpoint receives; omitted or null: every pair of the account.");

export const createWebhookEndpointInput = z.object({
  accountId: z.string().optional().describe("Defaults to the caller's only account."),
  url,
  description: description.optional(),
  eventTypes: eventTypes.optional(),
  sources: sources.optional(),
});

export const updateWebhookEndpointInput = z.object({
  url: url.optional(),
  description: description.optional(),
  eventTypes: eventTypes.optional(),
  sources: sources.optional(),
  enabled: z.boolean({ error: "enabled must be true or false" }).optional(),
});

export const webhookEndpointView = z.object({
  id: z.uuid(),
  url: z.string(),
  description: z.string().nullable(),
  eventTypes: z.array(orderEventType),
  sources: z
    .array(z.object({ referenceSource: z.string(), sourceIdentifier: z.string() }))
    .nullable()
    .describe("null: every source pair of the account."),
  enabled: z.boolean(),
  disabledReason: z
    .string()
    .nullable()
    .describe("Why the platform disabled the endpoint (410 Gone, or 5 days of failures); null otherwise."),
  created: z.string().describe("UTC, `yyyy-MM-ddTHH:mm:ss.fff`"),
  lastSuccess: z.string().nullable().describe("UTC, `yyyy-MM-ddTHH:mm:ss.fff`: the last delivery answered with 2xx."),
  failureStreak: z.number().int().describe("Failed attempts since the last success."),
});

export const createdWebhookEndpointView = webhookEndpointView.extend({
  secret: z
    .string()
    .describe("`whsec_` + base64 of 32 random bytes: the signing secret. Shown only in this response; store it now."),
});

export const rotatedSecretView = z.object({
  secret: z.string().describe("The new signing secret; the previous one also signs for 24 hours."),
});

export const DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;

export const webhookDeliveryView = z.object({
  id: z.uuid(),
  eventId: z.uuid(),
  eventType: z.enum([...ORDER_EVENT_TYPES, TEST_EVENT_TYPE]),
  attempts: z.number().int().describe("Attempts made so far."),
  status: z.enum(DELIVERY_STATUSES),
  responseStatus: z.number().int().nullable().describe("HTTP status of the last attempt; null when none answered."),
  durationMs: z.number().int().nullable().describe("Duration of the last attempt in milliseconds."),
  created: z.string().describe("UTC, `yyyy-MM-ddTHH:mm:ss.fff`"),
  nextAttempt: z
    .string()
    .nullable()
    .describe("UTC, `yyyy-MM-ddTHH:mm:ss.fff`: when the next attempt is due; null once succeeded or failed."),
  lastError: z.string().nullable().describe("Why the last attempt got no usable answer (timeout, refused target)."),
});

export const listDeliveriesQuery = z.object({
  status: z.enum(DELIVERY_STATUSES, { error: `status must be one of ${DELIVERY_STATUSES.join(", ")}` }).optional(),
});

export type WebhookEndpointView = z.infer<typeof webhookEndpointView>;
export type CreatedWebhookEndpointView = z.infer<typeof createdWebhookEndpointView>;
export type WebhookDeliveryView = z.infer<typeof webhookDeliveryView>;

export const toWebhookEndpointView = (row: WebhookEndpointRow): WebhookEndpointView => ({
  id: row.id,
  url: row.url,
  description: row.description,
  eventTypes: row.eventTypes as WebhookEndpointView["eventTypes"],
  sources: row.sources,
  enabled: row.enabled,
  disabledReason: row.disabledReason,
  created: formatMillis(row.createdAt),
  lastSuccess: row.lastSuccessAt ? formatMillis(row.lastSuccessAt) : null,
  failureStreak: row.failureStreak,
});

export const toWebhookDeliveryView = (row: WebhookDeliveryRow & { eventType: string }): WebhookDeliveryView => ({
  id: row.id,
  eventId: row.eventId,
  eventType: row.eventType as WebhookDeliveryView["eventType"],
  attempts: row.attempts,
  status: row.status,
  responseStatus: row.responseStatus,
  durationMs: row.durationMs,
  created: formatMillis(row.createdAt),
  nextAttempt: row.status === "pending" && row.nextAttemptAt ? formatMillis(row.nextAttemptAt) : null,
  lastError: row.lastError,
});
