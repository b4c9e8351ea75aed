CREATE TYPE "public"."membership_role" AS ENUM('owner', 'member');--> statement-breakpoint
CREATE TYPE "public"."shipping_status" AS ENUM('CREATED', 'HANDED_OVER', 'IN_TRANSIT', 'OUT_FOR_DELIVERY', 'DELIVERED', 'RETURNED', 'CANCELLED');--> statement-breakpoint
CREATE TYPE "public"."validation_operation" AS ENUM('validate', 'create');--> statement-breakpoint
CREATE TYPE "public"."validation_status" AS ENUM('OK', 'WARNING', 'ERROR');--> statement-breakpoint
CREATE SEQUENCE "public"."sandbox_shipping_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9999999999 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "memberships" (
	"user_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"role" "membership_role" DEFAULT 'member' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memberships_user_id_account_id_pk" PRIMARY KEY("user_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"password_hash" text NOT NULL,
	"is_staff" boolean DEFAULT false NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"name" varchar(100) NOT NULL,
	"key_hash" text NOT NULL,
	"suffix" varchar(4) NOT NULL,
	"permissions" text[] NOT NULL,
	"prevent_duplicate_orders" boolean DEFAULT false NOT NULL,
	"rate_limit_per_minute" integer DEFAULT 600 NOT NULL,
	"created_by_user_id" uuid,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp (3) with time zone,
	"revoked_at" timestamp (3) with time zone,
	CONSTRAINT "api_keys_name_length" CHECK (char_length("api_keys"."name") between 1 and 100),
	CONSTRAINT "api_keys_rate_limit_range" CHECK ("api_keys"."rate_limit_per_minute" between 1 and 100000)
);
--> statement-breakpoint
CREATE TABLE "audit_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid,
	"actor_user_id" uuid,
	"action" text NOT NULL,
	"target_id" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"ip" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "courier_profiles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"courier" text NOT NULL,
	"name" varchar(100) NOT NULL,
	"service" text,
	"is_default" boolean DEFAULT false NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "parcels" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"weight" numeric(8, 3) NOT NULL,
	"length" numeric(8, 2),
	"width" numeric(8, 2),
	"height" numeric(8, 2),
	"reference" varchar(64),
	"shipping_number" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shipping_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"api_key_id" uuid,
	"courier" text NOT NULL,
	"courier_profile_id" uuid NOT NULL,
	"reference_number" varchar(64) NOT NULL,
	"external_reference" varchar(64),
	"reference_source" text NOT NULL,
	"source_identifier" text NOT NULL,
	"service" text NOT NULL,
	"status" "shipping_status" DEFAULT 'CREATED' NOT NULL,
	"cod_price" numeric(12, 2),
	"cod_currency" varchar(3),
	"variable_symbol" varchar(10),
	"insurance_price" numeric(12, 2),
	"note" varchar(300),
	"pickup_point" text,
	"recipient_name" varchar(100) NOT NULL,
	"recipient_company" varchar(100),
	"recipient_street" varchar(100) NOT NULL,
	"recipient_city" varchar(60) NOT NULL,
	"recipient_zip" varchar(16) NOT NULL,
	"recipient_country" varchar(2) NOT NULL,
	"recipient_email" text,
	"recipient_phone" varchar(16),
	"tracking_url" text,
	"tracking_updated_at" timestamp (3) with time zone,
	"tracking_next_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	"replaced_by_id" uuid
);
--> statement-breakpoint
CREATE TABLE "tracking_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"time" timestamp (3) with time zone NOT NULL,
	"status" "shipping_status" NOT NULL,
	"description" text NOT NULL,
	"location" text
);
--> statement-breakpoint
CREATE TABLE "sources" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"reference_source" text NOT NULL,
	"source_identifier" text NOT NULL,
	"name" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "validation_results" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"api_key_id" uuid,
	"user_id" uuid,
	"operation" "validation_operation" NOT NULL,
	"courier" text NOT NULL,
	"courier_profile_id" uuid,
	"reference_number" varchar(200),
	"status" "validation_status" NOT NULL,
	"messages" jsonb NOT NULL,
	"request_body" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "courier_profiles" ADD CONSTRAINT "courier_profiles_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parcels" ADD CONSTRAINT "parcels_order_id_shipping_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."shipping_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipping_orders" ADD CONSTRAINT "shipping_orders_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipping_orders" ADD CONSTRAINT "shipping_orders_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipping_orders" ADD CONSTRAINT "shipping_orders_courier_profile_id_courier_profiles_id_fk" FOREIGN KEY ("courier_profile_id") REFERENCES "public"."courier_profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracking_events" ADD CONSTRAINT "tracking_events_order_id_shipping_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."shipping_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sources" ADD CONSTRAINT "sources_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "validation_results" ADD CONSTRAINT "validation_results_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "validation_results" ADD CONSTRAINT "validation_results_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "validation_results" ADD CONSTRAINT "validation_results_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "memberships_account_idx" ON "memberships" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_key" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "api_keys_account_active_idx" ON "api_keys" USING btree ("account_id","created_at") WHERE "api_keys"."revoked_at" is null;--> statement-breakpoint
CREATE INDEX "audit_events_account_created_idx" ON "audit_events" USING btree ("account_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "courier_profiles_account_idx" ON "courier_profiles" USING btree ("account_id","courier");--> statement-breakpoint
CREATE UNIQUE INDEX "courier_profiles_one_default_key" ON "courier_profiles" USING btree ("account_id","courier") WHERE "courier_profiles"."is_default";--> statement-breakpoint
CREATE UNIQUE INDEX "parcels_order_position_key" ON "parcels" USING btree ("order_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "parcels_shipping_number_key" ON "parcels" USING btree ("shipping_number");--> statement-breakpoint
CREATE UNIQUE INDEX "shipping_orders_live_reference_key" ON "shipping_orders" USING btree ("account_id","reference_number","reference_source","source_identifier") WHERE "shipping_orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "shipping_orders_account_created_idx" ON "shipping_orders" USING btree ("account_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "shipping_orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "shipping_orders_account_status_idx" ON "shipping_orders" USING btree ("account_id","status","created_at" DESC NULLS LAST) WHERE "shipping_orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "shipping_orders_account_courier_idx" ON "shipping_orders" USING btree ("account_id","courier","created_at" DESC NULLS LAST) WHERE "shipping_orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "shipping_orders_tracking_due_idx" ON "shipping_orders" USING btree ("account_id","tracking_next_at") WHERE "shipping_orders"."deleted_at" is null and "shipping_orders"."tracking_next_at" is not null;--> statement-breakpoint
CREATE INDEX "shipping_orders_account_reference_idx" ON "shipping_orders" USING btree ("account_id","reference_number") WHERE "shipping_orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "shipping_orders_account_profile_idx" ON "shipping_orders" USING btree ("account_id","courier_profile_id","created_at" DESC NULLS LAST) WHERE "shipping_orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "tracking_events_order_idx" ON "tracking_events" USING btree ("order_id","time");--> statement-breakpoint
CREATE UNIQUE INDEX "sources_account_pair_key" ON "sources" USING btree ("account_id","reference_source","source_identifier");--> statement-breakpoint
CREATE INDEX "sources_account_idx" ON "sources" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "validation_results_account_created_idx" ON "validation_results" USING btree ("account_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "validation_results_created_idx" ON "validation_results" USING btree ("created_at" DESC NULLS LAST);