import type { EventRow } from "@/db/schema";
import { formatMillis } from "@/server/time";
import type { EventView } from "./event-types";

export const toEventView = (
  row: Pick<EventRow, "id" | "type" | "createdAt" | "referenceSource" | "sourceIdentifier" | "data">,
): EventView =>
  ({
    id: row.id,
    type: row.type,
    created: formatMillis(row.createdAt),
    referenceSource: row.referenceSource,
    sourceIdentifier: row.sourceIdentifier,
    data: row.data,
  }) as EventView;
