-- The pull feed pages by a position given after commit (server/services/events/list-events.ts). Existing events
-- are numbered in the order the feed showed them until now, (tx_id, seq), so the cursors partners hold (event ids)
-- resolve to positions and continue exactly where they were. Events of transactions still running while this
-- runs stay unnumbered: the sequencer numbers them after everything below, once they commit.
CREATE SEQUENCE "public"."event_feed_position" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "position" bigint;--> statement-breakpoint
UPDATE "events" SET "position" = numbered.p
FROM (SELECT "id", row_number() OVER (ORDER BY "tx_id", "seq") AS p FROM "events") AS numbered
WHERE "events"."id" = numbered."id";--> statement-breakpoint
SELECT setval('"public"."event_feed_position"', coalesce(max("position"), 0) + 1, false) FROM "events";--> statement-breakpoint
-- A purge mark stood for the (tx_id, seq) of the newest event the purge removed; as a position it is the newest
-- kept event of its account at or before that point (0: none), so the same events follow it as before.
ALTER TABLE "event_purge_marks" ADD COLUMN "position" bigint;--> statement-breakpoint
UPDATE "event_purge_marks" SET "position" = coalesce((
  SELECT max(e."position") FROM "events" e
  WHERE e."account_id" = "event_purge_marks"."account_id"
    AND (e."tx_id", e."seq") <= ("event_purge_marks"."tx_id", "event_purge_marks"."seq")), 0);--> statement-breakpoint
ALTER TABLE "event_purge_marks" ALTER COLUMN "position" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "event_purge_marks" DROP COLUMN "tx_id";--> statement-breakpoint
ALTER TABLE "event_purge_marks" DROP COLUMN "seq";--> statement-breakpoint
DROP INDEX "events_account_feed_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "events_position_key" ON "events" USING btree ("position") WHERE position is not null;--> statement-breakpoint
CREATE INDEX "events_account_position_idx" ON "events" USING btree ("account_id","position") WHERE position is not null;--> statement-breakpoint
CREATE INDEX "events_unsequenced_idx" ON "events" USING btree ("account_id","tx_id","seq") WHERE position is null;
