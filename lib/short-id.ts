/**
 * The last 8 hex digits of an id, to tell rows apart at a glance. Ids are UUIDv7: their first digits are the
 * time they were made, alike for everything made in the same moment, so the end (random) is what differs.
 */
export const shortId = (id: string): string => id.slice(-8);
