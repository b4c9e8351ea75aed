import { listAllAccounts } from "@/server/services/accounts/list-all-accounts";
import { listMyAccounts } from "@/server/services/accounts/list-my-accounts";
import { z } from "zod";
import { getAccountSettings, updateAccountSettings } from "@/server/services/accounts/account-settings";
import { accountProcedure, createTRPCRouter, protectedProcedure, staffProcedure } from "../init";

export const accountsRouter = createTRPCRouter({
  /** The accounts the user belongs to, with their role: what the account switcher offers a partner. */
  mine: protectedProcedure.query(({ ctx }) => listMyAccounts(ctx.db, ctx.actor)),
  /** Every account: what the account switcher offers staff. */
  all: staffProcedure.query(({ ctx }) => listAllAccounts(ctx.db, ctx.actor)),
  /** The account's name and time zone, and whether its statistics are being recounted. */
  settings: accountProcedure.query(({ ctx }) => getAccountSettings(ctx.db, ctx.actor, ctx.access.accountId)),
  /** Owners and staff: rename, or set the time zone (which queues the recount). */
  update: accountProcedure
    .input(z.object({ name: z.string().optional(), timeZone: z.string().optional() }))
    .mutation(({ ctx, input }) => {
      const { accountId, ...changes } = input;
      return updateAccountSettings(ctx.db, ctx.actor, accountId, changes, { ip: ctx.ip });
    }),
});
