-- Every key-protected request updates its bucket row. Logged, that autocommit waits for a WAL flush:
-- 0.9-2.1 ms p50 on the bench machine against 0.2-0.5 ms unlogged (bench/results.md). Buckets are
-- disposable: after a crash PostgreSQL empties an unlogged table, and a bucket that is gone is simply full.
ALTER TABLE "rate_limit_buckets" SET UNLOGGED;
