import { z } from "zod";
import { createApiKey } from "@/server/services/api-keys/create-api-key";
import { listApiKeys } from "@/server/services/api-keys/list-api-keys";
import { revokeApiKey } from "@/server/services/api-keys/revoke-api-key";
import { createApiKeyInput, updateApiKeyInput } from "@/server/services/api-keys/schemas";
import { updateApiKey } from "@/server/services/api-keys/update-api-key";
import { pagingInput } from "@/server/services/pagination";
import { accountProcedure, createTRPCRouter, protectedProcedure } from "../init";

const keyId = z.object({ id: z.string() });

export const apiKeysRouter = createTRPCRouter({
  list: accountProcedure
    .input(pagingInput)
    .query(({ ctx, input }) =>
      listApiKeys(ctx.db, ctx.actor, ctx.access.accountId, { page: input.page, pageSize: input.pageSize }),
    ),
  /** The answer holds the full key; it is never readable again. */
  create: accountProcedure
    .input(createApiKeyInput)
    .mutation(({ ctx, input }) => createApiKey(ctx.db, ctx.actor, input, { ip: ctx.ip })),
  update: protectedProcedure
    .input(updateApiKeyInput.extend(keyId.shape))
    .mutation(({ ctx, input: { id, ...changes } }) => updateApiKey(ctx.db, ctx.actor, id, changes, { ip: ctx.ip })),
  revoke: protectedProcedure
    .input(keyId)
    .mutation(({ ctx, input }) => revokeApiKey(ctx.db, ctx.actor, input.id, { ip: ctx.ip })),
});
