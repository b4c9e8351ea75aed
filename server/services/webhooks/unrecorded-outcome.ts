/**
 * The log message of a webhook attempt whose outcome the database would not take within its lease
 * (deliver-webhook.ts). Its own module, free of imports: the invariant suite reads the processes' logs for it and
 * never loads the database client.
 */
export const UNRECORDED_OUTCOME =
  "webhook attempt's outcome not recorded within its lease; the attempt will count as failed";
