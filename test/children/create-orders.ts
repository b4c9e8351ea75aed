/**
 * A create in a process of its own, for tests that kill it at a chosen moment (test/courier-crash.test.ts):
 * `node --import tsx test/children/create-orders.ts '<json>'` with `{ origin, command }` of createShippingOrders,
 * against DATABASE_URL and the courier URLs in its environment. Prints the answer as one JSON line.
 */
import { getDb } from "@/db/client";
import { createShippingOrders, type CreateCommand } from "@/server/services/shipping-orders/create-shipping-orders";
import type { ValidationOrigin } from "@/server/services/shipping-orders/record-validation-results";

const { origin, command } = JSON.parse(process.argv[2] ?? "{}") as { origin: ValidationOrigin; command: CreateCommand };
const db = await getDb();
const answer = await createShippingOrders(db, origin, command);
process.stdout.write(`${JSON.stringify(answer)}\n`);
process.exit(0);
