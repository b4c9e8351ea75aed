-- Trigram index for pickup-point text search (db/schema/pickup-points.ts says why). pg_trgm is a trusted extension
-- (PostgreSQL 13+): a database owner may create it. Where the role may not (or PGlite was opened without it), the
-- migration goes on without the index: the search still answers, by a scan.
DO $$
BEGIN
	CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN OTHERS THEN
	RAISE NOTICE 'pg_trgm not available (%): pickup-point text search runs without its index', SQLERRM;
END
$$;--> statement-breakpoint
DO $$
BEGIN
	IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
		CREATE INDEX IF NOT EXISTS "pickup_points_search_text_idx" ON "pickup_points" USING gin ("search_text" gin_trgm_ops);
	END IF;
END
$$;
