/** `yyyy-MM-ddTHH:mm:ss.fff`, UTC, no zone suffix. */
export const formatMillis = (d: Date): string => d.toISOString().slice(0, 23);

/** `yyyy-MM-ddTHH:mm:ss`, UTC, no zone suffix. */
export const formatSeconds = (d: Date): string => d.toISOString().slice(0, 19);
