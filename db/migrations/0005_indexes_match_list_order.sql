DROP INDEX "shipping_orders_account_reference_idx";--> statement-breakpoint
DROP INDEX "audit_events_account_created_idx";--> statement-breakpoint
DROP INDEX "validation_results_account_created_idx";--> statement-breakpoint
DROP INDEX "validation_results_created_idx";--> statement-breakpoint
CREATE INDEX "audit_events_account_created_idx" ON "audit_events" USING btree ("account_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "validation_results_account_created_idx" ON "validation_results" USING btree ("account_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "validation_results_created_idx" ON "validation_results" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);