/**
 * The `error` next-auth hands the sign-in form when `authorize` throws for too many attempts. Kept free of
 * server imports so the form (a client component) can compare against it.
 */
export const SIGN_IN_RATE_LIMITED = "RateLimited";
