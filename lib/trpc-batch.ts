/**
 * The most calls one tRPC request may batch. The server refuses a longer batch (400) and the dashboard's link splits
 * its batches at the same size, so only a hand-made request meets the refusal.
 */
export const TRPC_MAX_BATCH_SIZE = 20;
