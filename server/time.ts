import { z } from "zod";

/** `yyyy-MM-ddTHH:mm:ss.fff`, UTC, no zone suffix. */
export const formatMillis = (d: Date): string => d.toISOString().slice(0, 23);

/** `yyyy-MM-ddTHH:mm:ss`, UTC, no zone suffix. */
export const formatSeconds = (d: Date): string => d.toISOString().slice(0, 19);

/** The answers' time formats as schemas: the pattern goes into the OpenAPI document for validators. */
export const secondsTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/)
  .describe("UTC, `yyyy-MM-ddTHH:mm:ss`");
export const millisTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/)
  .describe("UTC, `yyyy-MM-ddTHH:mm:ss.fff`");
