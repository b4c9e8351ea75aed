CREATE TABLE "courier_attempts" (
	"id" uuid PRIMARY KEY DEFAULT uuid_generate_v7() NOT NULL,
	"account_id" uuid NOT NULL,
	"api_key_id" uuid,
	"courier" text NOT NULL,
	"courier_profile_id" uuid NOT NULL,
	"base_url" text NOT NULL,
	"orders" jsonb NOT NULL,
	"answers" jsonb,
	"abandoned" boolean DEFAULT false NOT NULL,
	"recover_after" timestamp (3) with time zone NOT NULL,
	"recoveries" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "label_files" (
	"order_id" uuid NOT NULL,
	"format" text NOT NULL,
	"content_type" text NOT NULL,
	"body" "bytea" NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "label_files_order_id_format_pk" PRIMARY KEY("order_id","format")
);
--> statement-breakpoint
DROP INDEX "shipping_orders_tracking_due_all_idx";--> statement-breakpoint
ALTER TABLE "shipping_orders" ADD COLUMN "tracking_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "shipping_orders" ADD COLUMN "courier_data" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "refused_attempts" ADD COLUMN "field" text;--> statement-breakpoint
ALTER TABLE "courier_attempts" ADD CONSTRAINT "courier_attempts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "label_files" ADD CONSTRAINT "label_files_order_id_shipping_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."shipping_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "courier_attempts_recover_after_idx" ON "courier_attempts" USING btree ("recover_after");--> statement-breakpoint
CREATE INDEX "shipping_orders_tracking_due_courier_idx" ON "shipping_orders" USING btree ("courier","tracking_next_at") WHERE "shipping_orders"."deleted_at" is null and "shipping_orders"."tracking_next_at" is not null;