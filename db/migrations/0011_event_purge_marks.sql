CREATE TABLE "event_purge_marks" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"event_id" uuid NOT NULL,
	"tx_id" "xid8" NOT NULL,
	"seq" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "event_purge_marks" ADD CONSTRAINT "event_purge_marks_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;