/**
 * The orders list's `recipient` search: at least 3 characters (one trigram, what its index needs to narrow anything)
 * and at most 100 (a recipient name's length), counted after trimming. The REST list's schema and the dashboard's
 * filter both read these.
 */
export const RECIPIENT_SEARCH = { min: 3, max: 100 } as const;
