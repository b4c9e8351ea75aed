-- Issue 28: a PPL profile has no `depot` (PPL's ShipmentModel.depot says "Nepoužívat", do not use); the key leaves the
-- stored settings, so a profile view no longer shows it and a PATCH that keeps the stored settings passes the schema.
UPDATE "courier_profiles" SET "settings" = "settings" - 'depot' WHERE "courier" = 'ppl' AND "settings" ? 'depot';
