import type { ApiKeyRow } from "@/db/schema";
import { maskApiKey } from "@/server/auth/api-key-secret";
import { formatMillis } from "@/server/time";
import type { ApiKeyPermission } from "@/lib/api-key-permissions";
import type { ApiKeyView } from "./schemas";

export function toApiKeyView(row: ApiKeyRow): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    key: maskApiKey(row.suffix, row.kind),
    kind: row.kind,
    allowedOrigins: row.allowedOrigins,
    created: formatMillis(row.createdAt),
    lastUsed: row.lastUsedAt ? formatMillis(row.lastUsedAt) : null,
    permissions: row.permissions as ApiKeyPermission[],
    preventDuplicateOrders: row.preventDuplicateOrders,
    rateLimitPerMinute: row.rateLimitPerMinute,
  };
}
