CREATE TABLE "statistics_daily" (
	"account_id" uuid NOT NULL,
	"day" date NOT NULL,
	"reference_source" text NOT NULL,
	"source_identifier" text NOT NULL,
	"courier" text NOT NULL,
	"courier_profile_id" uuid,
	"currency" text DEFAULT '' NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"replaced" integer DEFAULT 0 NOT NULL,
	"cancelled" integer DEFAULT 0 NOT NULL,
	"refused" integer DEFAULT 0 NOT NULL,
	"delivered" integer DEFAULT 0 NOT NULL,
	"returned" integer DEFAULT 0 NOT NULL,
	"validations_ok" integer DEFAULT 0 NOT NULL,
	"validations_warning" integer DEFAULT 0 NOT NULL,
	"validations_error" integer DEFAULT 0 NOT NULL,
	"cod" numeric(16, 2) DEFAULT '0' NOT NULL,
	CONSTRAINT "statistics_daily_key" UNIQUE NULLS NOT DISTINCT("account_id","day","reference_source","source_identifier","courier","courier_profile_id","currency")
);
--> statement-breakpoint
CREATE TABLE "statistics_deltas" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"day" date NOT NULL,
	"reference_source" text NOT NULL,
	"source_identifier" text NOT NULL,
	"courier" text NOT NULL,
	"courier_profile_id" uuid,
	"currency" text DEFAULT '' NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"replaced" integer DEFAULT 0 NOT NULL,
	"cancelled" integer DEFAULT 0 NOT NULL,
	"refused" integer DEFAULT 0 NOT NULL,
	"delivered" integer DEFAULT 0 NOT NULL,
	"returned" integer DEFAULT 0 NOT NULL,
	"validations_ok" integer DEFAULT 0 NOT NULL,
	"validations_warning" integer DEFAULT 0 NOT NULL,
	"validations_error" integer DEFAULT 0 NOT NULL,
	"cod" numeric(16, 2) DEFAULT '0' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "time_zone" text DEFAULT 'Europe/Prague' NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "statistics_rebuild_since" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "validation_results" ADD COLUMN "reference_source" text;--> statement-breakpoint
ALTER TABLE "validation_results" ADD COLUMN "source_identifier" text;--> statement-breakpoint
-- Hand-written: the pair of each validation recorded so far, read from its request as validateOrder reads it
-- (blank or absent halves: `api`/`default` when both are, "" for the missing one).
UPDATE "validation_results" SET
  "reference_source" = CASE WHEN p.rs IS NULL AND p.si IS NULL THEN 'api' ELSE coalesce(p.rs, '') END,
  "source_identifier" = CASE WHEN p.rs IS NULL AND p.si IS NULL THEN 'default' ELSE coalesce(p.si, '') END
FROM (
  SELECT v.id,
    CASE WHEN json_typeof(v.request_body) = 'object' AND json_typeof(v.request_body -> 'ReferenceSource') = 'string'
      THEN nullif(btrim(v.request_body ->> 'ReferenceSource'), '') END AS rs,
    CASE WHEN json_typeof(v.request_body) = 'object' AND json_typeof(v.request_body -> 'SourceIdentifier') = 'string'
      THEN nullif(btrim(v.request_body ->> 'SourceIdentifier'), '') END AS si
  FROM "validation_results" v
) p
WHERE p.id = "validation_results".id;--> statement-breakpoint
ALTER TABLE "validation_results" ALTER COLUMN "reference_source" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "validation_results" ALTER COLUMN "source_identifier" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "statistics_daily" ADD CONSTRAINT "statistics_daily_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statistics_deltas" ADD CONSTRAINT "statistics_deltas_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "statistics_deltas_account_day_idx" ON "statistics_deltas" USING btree ("account_id","day");--> statement-breakpoint
CREATE INDEX "shipping_orders_replaced_by_idx" ON "shipping_orders" USING btree ("replaced_by_id") WHERE "shipping_orders"."replaced_by_id" is not null;
--> statement-breakpoint
-- Hand-written from here. Every key gets `statistics:read`, as the contract grants it to existing keys.
UPDATE "api_keys" SET "permissions" = array_append("permissions", 'statistics:read')
WHERE NOT 'statistics:read' = ANY("permissions");--> statement-breakpoint
-- The figures straight from the records, as `statistics_daily` rows: the backfill below, the rebuild after an
-- account changes its time zone, and the definition that the triggers keep up to date one change at a time.
--   created, replaced, cod: orders by the day they were created (replaced: an order that took another's place);
--   cancelled: orders by the day they were deleted or replaced;
--   delivered, returned: orders by the time of their first tracking event of that status;
--   refused: refused attempts; validations_*: validation records by status.
CREATE FUNCTION "statistics_from_records"(p_account uuid) RETURNS SETOF "statistics_daily"
LANGUAGE sql STABLE AS $$
  WITH a AS (SELECT id, time_zone FROM accounts WHERE p_account IS NULL OR id = p_account),
  facts AS (
    SELECT o.account_id, (o.created_at AT TIME ZONE a.time_zone)::date AS day, o.reference_source,
      o.source_identifier, o.courier, o.courier_profile_id, '' AS currency, 1 AS created,
      CASE WHEN EXISTS (SELECT 1 FROM shipping_orders p WHERE p.replaced_by_id = o.id) THEN 1 ELSE 0 END AS replaced,
      0 AS cancelled, 0 AS refused, 0 AS delivered, 0 AS returned, 0 AS ok, 0 AS warning, 0 AS error, 0::numeric AS cod
    FROM shipping_orders o JOIN a ON a.id = o.account_id
    UNION ALL
    SELECT o.account_id, (o.created_at AT TIME ZONE a.time_zone)::date, o.reference_source, o.source_identifier,
      o.courier, o.courier_profile_id, o.cod_currency, 0, 0, 0, 0, 0, 0, 0, 0, 0, o.cod_price
    FROM shipping_orders o JOIN a ON a.id = o.account_id
    WHERE o.cod_price IS NOT NULL AND o.cod_currency IS NOT NULL
    UNION ALL
    SELECT o.account_id, (o.deleted_at AT TIME ZONE a.time_zone)::date, o.reference_source, o.source_identifier,
      o.courier, o.courier_profile_id, '', 0, 0, 1, 0, 0, 0, 0, 0, 0, 0
    FROM shipping_orders o JOIN a ON a.id = o.account_id
    WHERE o.deleted_at IS NOT NULL
    UNION ALL
    SELECT o.account_id, (e.time AT TIME ZONE a.time_zone)::date, o.reference_source, o.source_identifier,
      o.courier, o.courier_profile_id, '', 0, 0, 0, 0,
      CASE WHEN e.status = 'DELIVERED' THEN 1 ELSE 0 END, CASE WHEN e.status = 'RETURNED' THEN 1 ELSE 0 END,
      0, 0, 0, 0
    FROM (
      SELECT DISTINCT ON (order_id, status) order_id, status, time FROM tracking_events
      WHERE status IN ('DELIVERED', 'RETURNED') ORDER BY order_id, status, id
    ) e JOIN shipping_orders o ON o.id = e.order_id JOIN a ON a.id = o.account_id
    UNION ALL
    SELECT r.account_id, (r.created_at AT TIME ZONE a.time_zone)::date, r.reference_source, r.source_identifier,
      r.courier, r.courier_profile_id, '', 0, 0, 0, 1, 0, 0, 0, 0, 0, 0
    FROM refused_attempts r JOIN a ON a.id = r.account_id
    UNION ALL
    SELECT v.account_id, (v.created_at AT TIME ZONE a.time_zone)::date, v.reference_source, v.source_identifier,
      v.courier, v.courier_profile_id, '', 0, 0, 0, 0, 0, 0,
      CASE WHEN v.status = 'OK' THEN 1 ELSE 0 END, CASE WHEN v.status = 'WARNING' THEN 1 ELSE 0 END,
      CASE WHEN v.status = 'ERROR' THEN 1 ELSE 0 END, 0
    FROM validation_results v JOIN a ON a.id = v.account_id
  )
  SELECT account_id, day, reference_source, source_identifier, courier, courier_profile_id, currency,
    sum(created)::int, sum(replaced)::int, sum(cancelled)::int, sum(refused)::int, sum(delivered)::int,
    sum(returned)::int, sum(ok)::int, sum(warning)::int, sum(error)::int, sum(cod)
  FROM facts GROUP BY account_id, day, reference_source, source_identifier, courier, courier_profile_id, currency
$$;--> statement-breakpoint
INSERT INTO "statistics_daily" SELECT * FROM "statistics_from_records"(NULL);--> statement-breakpoint
-- The triggers: each change appends its figures to statistics_deltas in the transaction that makes it.
-- Inserts are counted once per statement (a batch of 500 orders is one delta row per key); the rare updates
-- and the DELIVERED/RETURNED tracking events per row, behind a WHEN that costs nothing for every other row.
CREATE FUNCTION "statistics_on_orders_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO statistics_deltas (account_id, day, reference_source, source_identifier, courier, courier_profile_id, created, replaced)
  SELECT n.account_id, (n.created_at AT TIME ZONE a.time_zone)::date, n.reference_source, n.source_identifier,
    n.courier, n.courier_profile_id, count(*),
    count(*) FILTER (WHERE EXISTS (SELECT 1 FROM shipping_orders p WHERE p.replaced_by_id = n.id))
  FROM new_orders n JOIN accounts a ON a.id = n.account_id
  GROUP BY 1, 2, 3, 4, 5, 6;
  INSERT INTO statistics_deltas (account_id, day, reference_source, source_identifier, courier, courier_profile_id, currency, cod)
  SELECT n.account_id, (n.created_at AT TIME ZONE a.time_zone)::date, n.reference_source, n.source_identifier,
    n.courier, n.courier_profile_id, n.cod_currency, sum(n.cod_price)
  FROM new_orders n JOIN accounts a ON a.id = n.account_id
  WHERE n.cod_price IS NOT NULL AND n.cod_currency IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6, 7;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "statistics_orders_insert" AFTER INSERT ON "shipping_orders"
  REFERENCING NEW TABLE AS new_orders FOR EACH STATEMENT EXECUTE FUNCTION "statistics_on_orders_insert"();--> statement-breakpoint
CREATE FUNCTION "statistics_on_order_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO statistics_deltas (account_id, day, reference_source, source_identifier, courier, courier_profile_id, cancelled)
  SELECT NEW.account_id, (NEW.deleted_at AT TIME ZONE a.time_zone)::date, NEW.reference_source, NEW.source_identifier,
    NEW.courier, NEW.courier_profile_id, 1
  FROM accounts a WHERE a.id = NEW.account_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "statistics_order_removed" AFTER UPDATE OF "deleted_at" ON "shipping_orders" FOR EACH ROW
  WHEN (OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL) EXECUTE FUNCTION "statistics_on_order_removed"();--> statement-breakpoint
CREATE FUNCTION "statistics_on_final_tracking_event"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Counted once per order and status: only its first event of that status (ids grow with insertion).
  IF EXISTS (SELECT 1 FROM tracking_events e WHERE e.order_id = NEW.order_id AND e.status = NEW.status AND e.id < NEW.id) THEN
    RETURN NULL;
  END IF;
  INSERT INTO statistics_deltas (account_id, day, reference_source, source_identifier, courier, courier_profile_id, delivered, returned)
  SELECT o.account_id, (NEW.time AT TIME ZONE a.time_zone)::date, o.reference_source, o.source_identifier,
    o.courier, o.courier_profile_id,
    CASE WHEN NEW.status = 'DELIVERED' THEN 1 ELSE 0 END, CASE WHEN NEW.status = 'RETURNED' THEN 1 ELSE 0 END
  FROM shipping_orders o JOIN accounts a ON a.id = o.account_id WHERE o.id = NEW.order_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "statistics_final_tracking_event" AFTER INSERT ON "tracking_events" FOR EACH ROW
  WHEN (NEW.status IN ('DELIVERED', 'RETURNED')) EXECUTE FUNCTION "statistics_on_final_tracking_event"();--> statement-breakpoint
CREATE FUNCTION "statistics_on_refused_attempts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO statistics_deltas (account_id, day, reference_source, source_identifier, courier, courier_profile_id, refused)
  SELECT n.account_id, (n.created_at AT TIME ZONE a.time_zone)::date, n.reference_source, n.source_identifier,
    n.courier, n.courier_profile_id, count(*)
  FROM new_attempts n JOIN accounts a ON a.id = n.account_id
  GROUP BY 1, 2, 3, 4, 5, 6;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "statistics_refused_attempts" AFTER INSERT ON "refused_attempts"
  REFERENCING NEW TABLE AS new_attempts FOR EACH STATEMENT EXECUTE FUNCTION "statistics_on_refused_attempts"();--> statement-breakpoint
CREATE FUNCTION "statistics_on_validations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO statistics_deltas (account_id, day, reference_source, source_identifier, courier, courier_profile_id,
    validations_ok, validations_warning, validations_error)
  SELECT n.account_id, (n.created_at AT TIME ZONE a.time_zone)::date, n.reference_source, n.source_identifier,
    n.courier, n.courier_profile_id, count(*) FILTER (WHERE n.status = 'OK'),
    count(*) FILTER (WHERE n.status = 'WARNING'), count(*) FILTER (WHERE n.status = 'ERROR')
  FROM new_validations n JOIN accounts a ON a.id = n.account_id
  GROUP BY 1, 2, 3, 4, 5, 6;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "statistics_validations" AFTER INSERT ON "validation_results"
  REFERENCING NEW TABLE AS new_validations FOR EACH STATEMENT EXECUTE FUNCTION "statistics_on_validations"();
