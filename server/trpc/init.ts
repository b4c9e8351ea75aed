import { initTRPC, TRPCError } from "@trpc/server";
import type { Session } from "next-auth";
import superjson from "superjson";
import { z, ZodError } from "zod";
import { getDb } from "@/db/client";
import { env } from "@/server/env";
import { isDatabaseUnavailable } from "@/db/connection-errors";
import { AppError, errorTable, type FieldError } from "@/server/errors";
import { clientIp } from "@/server/http/handler";
import { accountAccess } from "@/server/services/authorization";
import { getActor } from "@/server/services/accounts/get-actor";
import { throttleDashboard } from "@/server/services/rate-limits/throttle-dashboard";
import { zodFieldErrors } from "@/server/validation";

/**
 * The context of every call: the database, the next-auth session (null when signed out), the client
 * address for the audit trail and the origin for absolute links (PUBLIC_URL, as in the REST door: never a request
 * header, which a member could point at any host for links later events carry). The HTTP route and the server-component
 * caller both build it from the request; tests build it with a session of their own.
 */
export async function createTRPCContext({ session, headers }: { session: Session | null; headers: Headers }) {
  return { db: await getDb(), session, ip: clientIp({ headers }), baseUrl: env().PUBLIC_URL };
}

type Context = Awaited<ReturnType<typeof createTRPCContext>>;

/** Field messages a form can put under its inputs: from a service's AppError or from tRPC's own input parsing. */
function fieldErrorsOf(cause: unknown): FieldError[] | null {
  if (cause instanceof AppError) return cause.errors ?? null;
  if (cause instanceof ZodError) return zodFieldErrors(cause);
  return null;
}

const t = initTRPC.context<Context>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    // An error no service meant to raise may carry SQL or internals: the browser gets a generic message, the log the rest.
    const unexpected = error.code === "INTERNAL_SERVER_ERROR" && !(error.cause instanceof AppError);
    return {
      ...shape,
      message: unexpected ? "An unexpected error occurred." : shape.message,
      data: {
        ...shape.data,
        errors: fieldErrorsOf(error.cause),
        // Create's "nothing was created" answer: each order's messages, for the form to show at its fields.
        validation: error.cause instanceof AppError ? (error.cause.details.result ?? null) : null,
      },
    };
  },
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

/** Services throw AppError and know nothing of tRPC; this is the one place their codes are translated (`errorTable`). */
const appErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (result.ok) return result;
  const cause = result.error.cause;
  if (cause instanceof AppError) {
    throw new TRPCError({ code: errorTable[cause.code].trpc, message: cause.message, cause });
  }
  if (isDatabaseUnavailable(cause)) {
    throw new TRPCError({
      code: "SERVICE_UNAVAILABLE",
      message: "The service is temporarily unavailable; retry shortly.",
      cause,
    });
  }
  return result;
});

export const publicProcedure = t.procedure.use(appErrors);

/** A signed-in user. The session proves who signed in; the database says whether that user still exists and is staff now. */
export const protectedProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const session = ctx.session;
  const actor = session ? await getActor(ctx.db, session.user.id) : null;
  if (!session || !actor) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in to continue." });
  return next({ ctx: { session, actor } });
});

export const staffProcedure = protectedProcedure.use(({ ctx, next }) => {
  if (!ctx.actor.isStaff) throw new TRPCError({ code: "FORBIDDEN", message: "Only staff can do this." });
  return next();
});

/**
 * A procedure about one account, named by `accountId` in its input. Another account answers NOT_FOUND,
 * as in the REST API; `ctx.access` carries the actor's role there. Writes are checked again, with the
 * owner requirement, by the service.
 */
export const accountProcedure = protectedProcedure
  .input(z.object({ accountId: z.string({ error: "accountId is required" }) }))
  .use(async ({ ctx, input, next }) =>
    next({ ctx: { access: await accountAccess(ctx.db, ctx.actor, input.accountId) } }),
  );

/**
 * The dashboard's expensive calls (validate, create, statistics, the courier check) count against the signed-in
 * user's limit and, for a call about an account the user may see, the account's ceiling: `.use(limited(cost))` after
 * `.input()`, with `cost` the requests the input counts as (a batch by its orders), as on the API.
 */
export function limited<I>(cost: (input: I) => number) {
  return async <R>({
    ctx,
    input,
    next,
  }: {
    ctx: { db: Context["db"]; actor: { userId: string }; access?: { accountId: string } };
    input: I;
    next: () => Promise<R>;
  }): Promise<R> => {
    await throttleDashboard(ctx.db, { userId: ctx.actor.userId, accountId: ctx.access?.accountId }, cost(input));
    return next();
  };
}
