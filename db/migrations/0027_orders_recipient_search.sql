-- Trigram index for the orders list's `recipient` search (db/schema/shipping-orders.ts says why). Like migration 0022,
-- it is created only where pg_trgm exists (that migration created the extension where the role may): without it the
-- search still answers, by a scan of the account's orders.
DO $$
BEGIN
	IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
		CREATE INDEX IF NOT EXISTS "shipping_orders_recipient_search_idx" ON "shipping_orders" USING gin ((lower(regexp_replace(normalize(translate("recipient_name", 'łŁđĐøØ', 'lLdDoO'), NFD), '[\u0300-\u036f]', '', 'g'))) gin_trgm_ops) WHERE "shipping_orders"."deleted_at" is null;
	END IF;
END
$$;
