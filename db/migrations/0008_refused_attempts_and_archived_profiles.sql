CREATE TABLE "refused_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"api_key_id" uuid,
	"user_id" uuid,
	"validation_result_id" uuid,
	"courier" text NOT NULL,
	"courier_profile_id" uuid,
	"reference_number" varchar(64) NOT NULL,
	"reference_source" text NOT NULL,
	"source_identifier" text NOT NULL,
	"code" text NOT NULL,
	"message" text NOT NULL,
	"request" json NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "validation_results" ALTER COLUMN "request_body" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "courier_profiles" ADD COLUMN "archived_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "refused_attempts" ADD CONSTRAINT "refused_attempts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refused_attempts" ADD CONSTRAINT "refused_attempts_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refused_attempts" ADD CONSTRAINT "refused_attempts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refused_attempts_account_created_idx" ON "refused_attempts" USING btree ("account_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "refused_attempts_created_idx" ON "refused_attempts" USING btree ("created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "refused_attempts_validation_result_idx" ON "refused_attempts" USING btree ("validation_result_id");