-- Hand-written: keys made before the event feed existed get `events:read` when they can already read
-- shipping orders, since the feed shows the same orders; new keys get it by default.
UPDATE "api_keys" SET "permissions" = array_append("permissions", 'events:read')
WHERE 'shipping-orders:read' = ANY("permissions") AND NOT 'events:read' = ANY("permissions");
