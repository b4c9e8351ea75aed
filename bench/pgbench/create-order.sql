-- One single-order create as PostgreSQL sees it (the statements of server/http/with-api-key.ts and
-- server/services/shipping-orders/*, in their order), for `pgbench -M prepared` (bench/capacity.ts).
-- :key_hash, :account, :api_key and :profile are the bench partner's (pgbench -D). The first statement stands in
-- for the sandbox's shipping-number sequence (one nextval per order here, one per 100 in the app) and for the JSON
-- the app builds: its values reach the following statements as parameters, as the app's do.
select nextval('sandbox_shipping_number_seq') as n,
       md5(random()::text)::uuid as order_id,
       now() as now_at
\gset
select
  json_build_array(json_build_object(
    'id', :order_id::text, 'account_id', :account::text, 'api_key_id', :api_key::text, 'courier', 'sandbox',
    'courier_profile_id', :profile::text, 'reference_number', 'PGB-' || :n::text, 'external_reference', null,
    'reference_source', 'api', 'source_identifier', 'default', 'service', 'STANDARD', 'status', 'CREATED',
    'cod_price', null, 'cod_currency', null, 'variable_symbol', null, 'insurance_price', null, 'note', null,
    'pickup_point', null, 'recipient_name', 'Jana Nováková', 'recipient_company', null,
    'recipient_street', 'Dlouhá 12', 'recipient_city', 'Praha', 'recipient_zip', '110 00', 'recipient_country', 'CZ',
    'recipient_email', 'jana@example.com', 'recipient_phone', '+420777123456',
    'tracking_url', 'https://sandbox-courier.example/track/SBX' || :n, 'tracking_updated_at', :now_at::text,
    'tracking_next_at', (:now_at::timestamptz + interval '1 hour'), 'created_at', :now_at::text))::text as orders_json,
  json_build_array(json_build_object('order_id', :order_id::text, 'position', 0, 'weight', '1.5', 'length', null,
    'width', null, 'height', null, 'reference', null, 'shipping_number', 'SBXPGB' || :n::text))::text as parcels_json,
  json_build_array(json_build_object('order_id', :order_id::text, 'time', :now_at::text, 'status', 'CREATED',
    'description', 'Shipment data received from the sender', 'location', null))::text as events_json,
  json_build_array(json_build_object('account_id', :account::text, 'api_key_id', :api_key::text, 'user_id', null,
    'operation', 'create', 'courier', 'sandbox', 'courier_profile_id', :profile::text, 'reference_number', 'PGB-' || :n::text,
    'status', 'OK', 'messages', '[]',
    'request_body', '{"ReferenceNumber":"PGB","Recipient":{"Name":"Jana Nováková","Street":"Dlouhá 12","City":"Praha","Zip":"110 00","Country":"CZ","Email":"jana@example.com","Phone":"+420777123456"},"Parcels":[{"Weight":1.5}]}'))::text as validation_json,
  '{PGB-' || :n::text || '}' as refs
\gset
-- withApiKey: key and rate-limit token
with k as (
  select id, account_id, permissions, prevent_duplicate_orders, rate_limit_per_minute,
         rate_limit_per_minute::float8 as lim
  from api_keys where key_hash = :key_hash::text and revoked_at is null limit 1
), used as (
  update api_keys set last_used_at = now()
  where id = (select id from k) and (last_used_at is null or last_used_at < now() - interval '1 minute')
), bucket as (
  insert into rate_limit_buckets as b (subject, tokens, allowed, updated_at)
  select 'key:' || k.id, k.lim - 1, true, now() from k
  on conflict (subject) do update set
    tokens = (select case when r.v >= 1 then r.v - 1 else r.v end from (
      select least(k.lim, b.tokens + extract(epoch from (now() - b.updated_at)) * (k.lim / 60)) as v from k) r),
    allowed = (select least(k.lim, b.tokens + extract(epoch from (now() - b.updated_at)) * (k.lim / 60)) >= 1 from k),
    updated_at = now()
  returning subject, tokens, allowed
)
select k.id, k.account_id, k.permissions, k.prevent_duplicate_orders, k.rate_limit_per_minute, bucket.tokens, bucket.allowed
from k join bucket on bucket.subject = 'key:' || k.id;
-- resolveCourierProfile (the default profile)
select * from courier_profiles where account_id = :account::uuid and courier = 'sandbox' and is_default = true limit 1;
-- persistOrders
begin;
select pg_advisory_xact_lock(h) from (
  select distinct hashtextextended(:account::text || ':' || r, 0) as h from unnest(:refs::text::text[]) as r order by h
) locks;
select id, reference_number, reference_source, source_identifier, courier from shipping_orders
where account_id = :account::uuid and deleted_at is null and reference_number = any(:refs::text::text[]);
-- recordValidationResults, in the orders' transaction
insert into validation_results ("account_id", "api_key_id", "user_id", "operation", "courier", "courier_profile_id",
  "reference_number", "reference_source", "source_identifier", "status", "messages", "request_body")
select "account_id", "api_key_id", "user_id", "operation", "courier", "courier_profile_id", "reference_number",
  'api', 'default', "status", "messages"::jsonb, "request_body"::jsonb
from json_to_recordset(:validation_json::text::json) as r("account_id" uuid, "api_key_id" uuid, "user_id" uuid,
  "operation" validation_operation, "courier" text, "courier_profile_id" uuid, "reference_number" varchar(200),
  "status" validation_status, "messages" text, "request_body" text);
with inserted_orders as (
  insert into "shipping_orders" ("id", "account_id", "api_key_id", "courier", "courier_profile_id", "reference_number",
    "external_reference", "reference_source", "source_identifier", "service", "status", "cod_price", "cod_currency",
    "variable_symbol", "insurance_price", "note", "pickup_point", "recipient_name", "recipient_company",
    "recipient_street", "recipient_city", "recipient_zip", "recipient_country", "recipient_email", "recipient_phone",
    "tracking_url", "tracking_updated_at", "tracking_next_at", "created_at")
  select * from json_to_recordset(:orders_json::text::json) as r("id" uuid, "account_id" uuid, "api_key_id" uuid,
    "courier" text, "courier_profile_id" uuid, "reference_number" varchar(64), "external_reference" varchar(64),
    "reference_source" text, "source_identifier" text, "service" text, "status" shipping_status,
    "cod_price" numeric(12, 2), "cod_currency" varchar(3), "variable_symbol" varchar(10),
    "insurance_price" numeric(12, 2), "note" varchar(300), "pickup_point" text, "recipient_name" varchar(100),
    "recipient_company" varchar(100), "recipient_street" varchar(100), "recipient_city" varchar(60),
    "recipient_zip" varchar(16), "recipient_country" varchar(2), "recipient_email" text, "recipient_phone" varchar(16),
    "tracking_url" text, "tracking_updated_at" timestamp (3) with time zone,
    "tracking_next_at" timestamp (3) with time zone, "created_at" timestamp (3) with time zone)
), inserted_parcels as (
  insert into "parcels" ("order_id", "position", "weight", "length", "width", "height", "reference", "shipping_number")
  select * from json_to_recordset(:parcels_json::text::json) as r("order_id" uuid, "position" integer,
    "weight" numeric(8, 3), "length" numeric(8, 2), "width" numeric(8, 2), "height" numeric(8, 2),
    "reference" varchar(64), "shipping_number" text)
  returning order_id, position, weight::text, length::text, width::text, height::text, reference, shipping_number
), inserted_events as (
  insert into "tracking_events" ("order_id", "time", "status", "description", "location")
  select * from json_to_recordset(:events_json::text::json) as r("order_id" uuid, "time" timestamp (3) with time zone,
    "status" shipping_status, "description" text, "location" text)
)
select * from inserted_parcels;
commit;
