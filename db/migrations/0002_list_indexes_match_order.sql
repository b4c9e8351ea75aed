DROP INDEX "shipping_orders_account_created_idx";--> statement-breakpoint
DROP INDEX "shipping_orders_account_status_idx";--> statement-breakpoint
DROP INDEX "shipping_orders_account_courier_idx";--> statement-breakpoint
DROP INDEX "shipping_orders_account_profile_idx";--> statement-breakpoint
CREATE INDEX "shipping_orders_account_created_idx" ON "shipping_orders" USING btree ("account_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "shipping_orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "shipping_orders_account_status_idx" ON "shipping_orders" USING btree ("account_id","status","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "shipping_orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "shipping_orders_account_courier_idx" ON "shipping_orders" USING btree ("account_id","courier","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "shipping_orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "shipping_orders_account_profile_idx" ON "shipping_orders" USING btree ("account_id","courier_profile_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "shipping_orders"."deleted_at" is null;