import type { DirectoryPoint } from "../directory-point";

/** A point as one feed describes it: the directory's row without what the sync itself decides (`closedSince`). */
export type FeedPoint = Omit<DirectoryPoint, "closedSince">;

/** Why an entry of a feed was left out (it is counted and logged, never stored half-read). */
export type Skipped = { reason: string };

export const isSkipped = (value: FeedPoint | Skipped): value is Skipped => "reason" in value;
