import { and, count, eq, isNull, sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { Db } from "@/db/client";
import { courierProfiles } from "@/db/schema";
import { findCourier } from "@/server/couriers/registry";
import { AppError } from "@/server/errors";
import { sealProfileSettings, withKeptSecrets } from "@/server/secrets/profile-settings";
import { parseInput, zodFieldErrors } from "@/server/validation";
import { accountAccess, defaultAccountId, type Actor } from "../authorization";
import { recordAudit, type AuditContext } from "../audit/record-audit";
import { createCourierProfileInput, PROFILES_PER_COURIER, profileRefusals, type CourierProfileView } from "./schemas";
import { toCourierProfileView } from "./to-view";

/**
 * Creates a courier profile. An account's first profile for a courier becomes its default; a new profile
 * created with `isDefault: true` takes the default over from the previous one. An account that has
 * `PROFILES_PER_COURIER` profiles of the courier (archived ones not counted) → 409, naming the limit.
 */
export async function createCourierProfile(
  db: Db,
  actor: Actor,
  raw: unknown,
  audit: AuditContext = {},
): Promise<CourierProfileView> {
  const input = parseInput(createCourierProfileInput, raw);
  const courier = findCourier(input.courier);
  if (!courier) throw profileRefusals.unknownCourier(input.courier);
  if (input.service && !courier.capabilities.services.some((s) => s.code === input.service)) {
    throw profileRefusals.unknownService(courier.capabilities.id, input.service);
  }
  const secretFields = courier.settings.secretFields;
  const settings = courier.settings.schema.safeParse(withKeptSecrets(input.settings ?? {}, null, secretFields));
  if (!settings.success) {
    const errors = zodFieldErrors(settings.error).map((e) => ({ ...e, field: `settings.${e.field}` }));
    throw new AppError("bad_request", "settings are not valid for this courier.", { errors });
  }
  const accountId = input.accountId ?? (await defaultAccountId(db, actor));
  await accountAccess(db, actor, accountId, { write: true });
  return db.transaction(async (tx) => {
    // Serialises profile creation per account and courier, so "first profile is the default" and the cap hold under
    // concurrency.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`profile:${accountId}:${input.courier}`}))`);
    const [live] = await tx
      .select({ profiles: count() })
      .from(courierProfiles)
      .where(
        and(
          eq(courierProfiles.accountId, accountId),
          eq(courierProfiles.courier, input.courier),
          isNull(courierProfiles.archivedAt),
        ),
      );
    if (live!.profiles >= PROFILES_PER_COURIER) throw profileRefusals.tooMany(input.courier);
    const [existingDefault] = await tx
      .select({ id: courierProfiles.id })
      .from(courierProfiles)
      .where(
        and(
          eq(courierProfiles.accountId, accountId),
          eq(courierProfiles.courier, input.courier),
          eq(courierProfiles.isDefault, true),
        ),
      );
    const isDefault = !existingDefault || input.isDefault === true;
    if (isDefault && existingDefault) {
      await tx.update(courierProfiles).set({ isDefault: false }).where(eq(courierProfiles.id, existingDefault.id));
    }
    // The id is made here so the secrets can be sealed for this row (bound to it) in the insert itself.
    const id = uuidv7();
    const [row] = await tx
      .insert(courierProfiles)
      .values({
        id,
        accountId,
        courier: input.courier,
        name: input.name,
        service: input.service ?? null,
        isDefault,
        settings: sealProfileSettings(settings.data, { id, accountId }, secretFields),
      })
      .returning();
    await recordAudit(tx, {
      ...audit,
      accountId,
      actorUserId: actor.userId,
      action: "courier_profile.created",
      targetId: row!.id,
      details: { courier: input.courier, name: input.name, isDefault },
    });
    return toCourierProfileView(row!);
  });
}
