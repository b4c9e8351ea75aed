import { z } from "zod";
import type { Executor } from "@/db/client";
import { ACCESS_TOKEN_TTL_SECONDS, signAccessToken } from "@/server/auth/access-tokens";
import { AppError } from "@/server/errors";
import { parseInput } from "@/server/validation";
import { recordSignIn } from "../audit/record-sign-in";
import { throttleSignIn } from "../rate-limits/throttle-sign-in";
import { authenticateUser } from "./authenticate-user";

export const issueAccessTokenInput = z.object({
  email: z.string({ error: "email is required" }).min(1, "email is required").max(254),
  password: z.string({ error: "password is required" }).min(1, "password is required").max(200),
});

export type AccessTokenResponse = { accessToken: string; tokenType: "Bearer"; expiresIn: number };

export const wrongCredentials = () =>
  new AppError("unauthorized", "The email or password is wrong.", { details: { challenge: {} } });

/** `POST /auth/token`: email and password → a bearer access token for the private API. */
export async function issueAccessToken(
  db: Executor,
  raw: unknown,
  { ip = null }: { ip?: string | null } = {},
): Promise<AccessTokenResponse> {
  const { email, password } = parseInput(issueAccessTokenInput, raw);
  await throttleSignIn(db, email, ip);
  const user = await authenticateUser(db, email, password);
  if (!user) throw wrongCredentials();
  await recordSignIn(db, user.id, "api-token", ip);
  return {
    accessToken: await signAccessToken(user.id, user.sessionVersion),
    tokenType: "Bearer",
    expiresIn: ACCESS_TOKEN_TTL_SECONDS,
  };
}
