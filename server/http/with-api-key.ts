import { AppError } from "@/server/errors";
import type { ApiKeyPermission } from "@/server/services/api-keys/schemas";
import { verifyApiKey, type ApiKeyPrincipal } from "@/server/services/api-keys/verify-api-key";
import { handler, type HandlerArgs } from "./handler";
import { bearerToken } from "./with-access-token";

const unauthorized = (detail: string) => new AppError("unauthorized", detail, { headers: { "www-authenticate": 'Bearer realm="shipping-orders"' } });

/**
 * A shipping-order API route: an active API key (`Authorization: Bearer` or `X-API-Key`) holding
 * `permission`. Missing, unknown or revoked → 401 with WWW-Authenticate; lacking the permission → 403.
 */
export function withApiKey<P extends Record<string, string>>(
  permission: ApiKeyPermission,
  fn: (args: HandlerArgs<P> & { principal: ApiKeyPrincipal }) => Promise<Response>,
) {
  return handler<P>(async (args) => {
    const key = args.request.headers.get("x-api-key")?.trim() || bearerToken(args.request);
    if (!key) throw unauthorized("An API key is required: send Authorization: Bearer <key> or X-API-Key: <key>.");
    const principal = await verifyApiKey(args.db, key);
    if (!principal) throw unauthorized("The API key is unknown or revoked.");
    if (!principal.permissions.includes(permission)) {
      throw new AppError("forbidden", `The API key lacks the permission ${permission}.`);
    }
    return fn({ ...args, principal });
  });
}
