ALTER TABLE "pickup_point_syncs" ADD COLUMN "last_open_count" integer;--> statement-breakpoint
CREATE INDEX "pickup_points_compact_zip_idx" ON "pickup_points" USING btree ("courier",replace("zip", ' ', ''));--> statement-breakpoint
-- Point feeds synced before this column existed: their open points now, as their next sync will store them.
UPDATE "pickup_point_syncs" AS s SET "last_open_count" = (
	SELECT count(*)::int FROM "pickup_points" AS p
	WHERE p."courier" = s."courier" AND p."open"
		AND (s."feed" <> 'packeta-points' OR p."type" = 'POINT')
		AND (s."feed" <> 'packeta-boxes' OR p."type" = 'LOCKER')
) WHERE s."feed" IN ('packeta-points', 'packeta-boxes', 'ppl-access-points') AND s."last_success_at" IS NOT NULL;
