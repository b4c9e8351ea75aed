import type { ApiKeyRow } from "@/db/schema";
import { API_KEY_PREFIX, maskApiKey, PUBLISHABLE_KEY_PREFIX } from "@/server/auth/api-key-secret";
import { formatMillis } from "@/server/time";
import type { ApiKeyPermission, ApiKeyView } from "./schemas";

export function toApiKeyView(row: ApiKeyRow): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    key: maskApiKey(row.suffix, row.kind === "publishable" ? PUBLISHABLE_KEY_PREFIX : API_KEY_PREFIX),
    kind: row.kind,
    allowedOrigins: row.allowedOrigins,
    created: formatMillis(row.createdAt),
    lastUsed: row.lastUsedAt ? formatMillis(row.lastUsedAt) : null,
    permissions: row.permissions as ApiKeyPermission[],
    preventDuplicateOrders: row.preventDuplicateOrders,
    rateLimitPerMinute: row.rateLimitPerMinute,
  };
}
