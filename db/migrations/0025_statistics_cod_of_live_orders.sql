-- The contract's `cod` sums the cash on delivery of the orders that still carry it: an order replaced or deleted no
-- longer counts (the figure is money a shop can expect). The recount and the trigger of a removal learn that, and
-- the figures kept so far lose the COD of every order already removed.
CREATE OR REPLACE FUNCTION "statistics_from_records"(p_account uuid) RETURNS SETOF "statistics_daily"
LANGUAGE sql STABLE AS $$
  WITH a AS (SELECT id, time_zone FROM accounts WHERE p_account IS NULL OR id = p_account),
  facts AS (
    SELECT o.account_id, (o.created_at AT TIME ZONE a.time_zone)::date AS day, o.reference_source,
      o.source_identifier, o.courier, o.courier_profile_id, '' AS currency, 1 AS created,
      CASE WHEN EXISTS (SELECT 1 FROM shipping_orders p WHERE p.replaced_by_id = o.id) THEN 1 ELSE 0 END AS replaced,
      0 AS cancelled, 0 AS refused, 0 AS delivered, 0 AS returned, 0 AS ok, 0 AS warning, 0 AS error, 0::numeric AS cod
    FROM shipping_orders o JOIN a ON a.id = o.account_id
    UNION ALL
    -- COD: the live orders' only, on the day each was created.
    SELECT o.account_id, (o.created_at AT TIME ZONE a.time_zone)::date, o.reference_source, o.source_identifier,
      o.courier, o.courier_profile_id, o.cod_currency, 0, 0, 0, 0, 0, 0, 0, 0, 0, o.cod_price
    FROM shipping_orders o JOIN a ON a.id = o.account_id
    WHERE o.cod_price IS NOT NULL AND o.cod_currency IS NOT NULL AND o.deleted_at IS NULL
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
-- A removal (a delete, or the replacement's retirement of its predecessor, in the replacement's transaction) counts
-- the order cancelled on the day it goes, and takes its COD back from the day it was created.
CREATE OR REPLACE FUNCTION "statistics_on_order_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO statistics_deltas (account_id, day, reference_source, source_identifier, courier, courier_profile_id, cancelled)
  SELECT NEW.account_id, (NEW.deleted_at AT TIME ZONE a.time_zone)::date, NEW.reference_source, NEW.source_identifier,
    NEW.courier, NEW.courier_profile_id, 1
  FROM accounts a WHERE a.id = NEW.account_id;
  IF NEW.cod_price IS NOT NULL AND NEW.cod_currency IS NOT NULL THEN
    INSERT INTO statistics_deltas (account_id, day, reference_source, source_identifier, courier, courier_profile_id, currency, cod)
    SELECT NEW.account_id, (NEW.created_at AT TIME ZONE a.time_zone)::date, NEW.reference_source, NEW.source_identifier,
      NEW.courier, NEW.courier_profile_id, NEW.cod_currency, -NEW.cod_price
    FROM accounts a WHERE a.id = NEW.account_id;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- The figures kept so far counted the COD of every order created: the removed ones' is taken back, as the trigger
-- above now does for each removal (a delta per key, folded in by the worker's next compaction).
INSERT INTO statistics_deltas (account_id, day, reference_source, source_identifier, courier, courier_profile_id, currency, cod)
SELECT o.account_id, (o.created_at AT TIME ZONE a.time_zone)::date, o.reference_source, o.source_identifier,
  o.courier, o.courier_profile_id, o.cod_currency, -sum(o.cod_price)
FROM shipping_orders o JOIN accounts a ON a.id = o.account_id
WHERE o.deleted_at IS NOT NULL AND o.cod_price IS NOT NULL AND o.cod_currency IS NOT NULL
GROUP BY 1, 2, 3, 4, 5, 6, 7;
