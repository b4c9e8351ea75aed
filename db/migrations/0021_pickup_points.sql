CREATE TABLE "packeta_carriers" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"country" text NOT NULL,
	"currency" text NOT NULL,
	"available" boolean NOT NULL,
	"pickup_points" boolean NOT NULL,
	"api_allowed" boolean NOT NULL,
	"separate_house_number" boolean NOT NULL,
	"customs_declarations" boolean NOT NULL,
	"requires_email" boolean NOT NULL,
	"requires_phone" boolean NOT NULL,
	"requires_size" boolean NOT NULL,
	"disallows_cod" boolean NOT NULL,
	"max_weight_kg" double precision,
	"seen_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pickup_point_syncs" (
	"feed" text PRIMARY KEY NOT NULL,
	"courier" text NOT NULL,
	"last_started_at" timestamp (3) with time zone,
	"last_success_at" timestamp (3) with time zone,
	"last_duration_ms" integer,
	"last_count" integer,
	"last_error" text,
	"last_error_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "pickup_points" (
	"courier" text NOT NULL,
	"id" text NOT NULL,
	"type" text NOT NULL,
	"network" text NOT NULL,
	"name" text NOT NULL,
	"street" text NOT NULL,
	"city" text NOT NULL,
	"zip" text NOT NULL,
	"country" text NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"opening_hours" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cod" boolean NOT NULL,
	"card_payment" boolean NOT NULL,
	"max_weight_kg" double precision,
	"max_size_cm" jsonb,
	"open" boolean NOT NULL,
	"closed_since" date,
	"search_text" text NOT NULL,
	"feed_hash" text NOT NULL,
	"seen_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pickup_points_courier_id_pk" PRIMARY KEY("courier","id")
);
--> statement-breakpoint
CREATE INDEX "pickup_points_location_idx" ON "pickup_points" USING btree ("courier","latitude","longitude");--> statement-breakpoint
CREATE INDEX "pickup_points_zip_idx" ON "pickup_points" USING btree ("courier","country","zip");