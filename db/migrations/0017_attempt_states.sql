ALTER TABLE "refused_attempts" ADD COLUMN "outcome_unknown" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "refused_attempts" ADD COLUMN "courier_attempt_id" uuid;--> statement-breakpoint
ALTER TABLE "courier_attempts" ADD COLUMN "state" text DEFAULT 'open' NOT NULL;--> statement-breakpoint
ALTER TABLE "courier_attempts" ADD COLUMN "claimed_from" text;--> statement-breakpoint
ALTER TABLE "courier_attempts" ADD COLUMN "unknown_orders" jsonb;--> statement-breakpoint
ALTER TABLE "courier_attempts" ADD COLUMN "closed_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "courier_attempts_closed_at_idx" ON "courier_attempts" USING btree ("closed_at") WHERE closed_at is not null;--> statement-breakpoint
UPDATE "courier_attempts" SET "state" = 'abandoned' WHERE "abandoned";--> statement-breakpoint
ALTER TABLE "courier_attempts" DROP COLUMN "abandoned";
