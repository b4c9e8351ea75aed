import { listAllAccounts } from "@/server/services/accounts/list-all-accounts";
import { listMyAccounts } from "@/server/services/accounts/list-my-accounts";
import { createTRPCRouter, protectedProcedure, staffProcedure } from "../init";

export const accountsRouter = createTRPCRouter({
  /** The accounts the user belongs to, with their role: what the account switcher offers a partner. */
  mine: protectedProcedure.query(({ ctx }) => listMyAccounts(ctx.db, ctx.actor)),
  /** Every account: what the account switcher offers staff. */
  all: staffProcedure.query(({ ctx }) => listAllAccounts(ctx.db, ctx.actor)),
});
