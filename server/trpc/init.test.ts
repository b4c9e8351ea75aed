import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { TRPCError } from "@trpc/server";
import { beforeAll, describe, expect, it } from "vitest";
import { AppError, type AppErrorCode } from "@/server/errors";
import { createTestUser, type TestUser } from "@/test/helpers";
import { sessionOf } from "@/test/trpc";
import { createCallerFactory, createTRPCContext, createTRPCRouter, publicProcedure } from "./init";
import { appRouter } from "./root";

type ErrorBody = {
  error: {
    json: {
      message: string;
      code: number;
      data: { code: string; httpStatus: number; errors: { field: string; message: string }[] | null };
    };
  };
};

/** One tRPC HTTP request through the same handler and formatter as `app/api/trpc/[trpc]/route.ts`. */
async function post(user: TestUser, path: string, input: unknown): Promise<{ status: number; body: ErrorBody }> {
  const response = await fetchRequestHandler({
    endpoint: "/api/trpc",
    req: new Request(`http://localhost/api/trpc/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ json: input }),
    }),
    router: appRouter,
    createContext: () => createTRPCContext({ session: sessionOf(user), headers: new Headers() }),
  });
  return { status: response.status, body: (await response.json()) as ErrorBody };
}

describe("tRPC error mapping", () => {
  const thrower = createTRPCRouter({
    fail: publicProcedure
      .input((value) => value as { code: AppErrorCode })
      .query(({ input }) => {
        throw new AppError(input.code, `failed with ${input.code}`, {
          errors: [{ field: "name", message: "is wrong" }],
        });
      }),
    crash: publicProcedure.query(() => {
      throw new Error('relation "secret_table" does not exist');
    }),
  });

  const expected: [AppErrorCode, string][] = [
    ["not_found", "NOT_FOUND"],
    ["bad_request", "BAD_REQUEST"],
    ["validation_failed", "BAD_REQUEST"],
    ["forbidden", "FORBIDDEN"],
    ["unauthorized", "UNAUTHORIZED"],
    ["conflict", "CONFLICT"],
    ["unknown_source", "UNPROCESSABLE_CONTENT"],
    ["unprocessable", "UNPROCESSABLE_CONTENT"],
    ["rate_limited", "TOO_MANY_REQUESTS"],
    ["payload_too_large", "PAYLOAD_TOO_LARGE"],
    ["internal", "INTERNAL_SERVER_ERROR"],
  ];

  it.each(expected)("maps AppError %s to %s and keeps the message and field errors", async (appCode, trpcCode) => {
    const caller = createCallerFactory(thrower)(await createTRPCContext({ session: null, headers: new Headers() }));
    const error = (await caller.fail({ code: appCode }).catch((e: unknown) => e)) as TRPCError;
    expect(error).toBeInstanceOf(TRPCError);
    expect(error.code).toBe(trpcCode);
    expect(error.message).toBe(`failed with ${appCode}`);
    expect((error.cause as AppError).errors).toEqual([{ field: "name", message: "is wrong" }]);
  });

  it("hides the details of an unexpected error from the client", async () => {
    const response = await fetchRequestHandler({
      endpoint: "/api/trpc",
      req: new Request("http://localhost/api/trpc/crash"),
      router: thrower,
      createContext: () => createTRPCContext({ session: null, headers: new Headers() }),
    });
    const body = (await response.json()) as ErrorBody;
    expect(response.status).toBe(500);
    expect(body.error.json.message).toBe("An unexpected error occurred.");
    expect(body.error.json.data.errors).toBeNull();
  });

  describe("over HTTP", () => {
    let owner: TestUser;
    beforeAll(async () => {
      owner = await createTestUser();
    });

    it("puts a service's field errors into the error data", async () => {
      await post(owner, "sources.activate", {
        accountId: owner.accountId,
        referenceSource: "shop",
        sourceIdentifier: "one",
      });
      const { status, body } = await post(owner, "sources.activate", {
        accountId: owner.accountId,
        referenceSource: "shop",
        sourceIdentifier: "one",
      });
      expect(status).toBe(409);
      expect(body.error.json.data.code).toBe("CONFLICT");
      expect(body.error.json.data.errors).toEqual([{ field: "sourceIdentifier", message: "pair already active" }]);
    });

    it("puts input validation failures into the error data, one per field", async () => {
      const { status, body } = await post(owner, "apiKeys.create", { accountId: owner.accountId, name: "" });
      expect(status).toBe(400);
      expect(body.error.json.data.errors).toEqual([{ field: "name", message: "name must have 1 to 100 characters" }]);
    });

    it("answers NOT_FOUND for an account the user is not in", async () => {
      const other = await createTestUser();
      const { status, body } = await post(owner, "apiKeys.create", { accountId: other.accountId, name: "Intruder" });
      expect(status).toBe(404);
      expect(body.error.json.data.errors).toBeNull();
    });
  });
});
