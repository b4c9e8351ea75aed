/** The `error` next-auth hands the sign-in form (a client component) when `authorize` throws for too many attempts. */
export const SIGN_IN_RATE_LIMITED = "RateLimited";
