import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { courierProfiles } from "@/db/schema";
import { findCourier } from "@/server/couriers/registry";
import { AppError } from "@/server/errors";
import { sealProfileSettings, withKeptSecrets } from "@/server/secrets/profile-settings";
import { parseInput, zodFieldErrors } from "@/server/validation";
import type { Actor } from "../authorization";
import { recordAudit, type AuditContext } from "../audit/record-audit";
import { findProfileForChange } from "./find-profile-for-change";
import { profileRefusals, updateCourierProfileInput, type CourierProfileView } from "./schemas";
import { toCourierProfileView } from "./to-view";

/**
 * Renames a profile or changes its default service or settings, checked against its courier as on create.
 * Orders already created keep what they were created with; the change applies to the next ones.
 */
export async function updateCourierProfile(
  db: Db,
  actor: Actor,
  id: string,
  raw: unknown,
  audit: AuditContext = {},
): Promise<CourierProfileView> {
  const input = parseInput(updateCourierProfileInput, raw);
  return db.transaction(async (tx) => {
    const profile = await findProfileForChange(tx, actor, id);
    const courier = findCourier(profile.courier);
    if (!courier) throw new AppError("conflict", `The courier ${profile.courier} is no longer offered.`);
    if (input.service && !courier.capabilities.services.some((s) => s.code === input.service)) {
      throw profileRefusals.unknownService(courier.capabilities.id, input.service);
    }
    let settings: Record<string, unknown> | undefined;
    if (input.settings !== undefined) {
      const secretFields = courier.settings.secretFields;
      const parsed = courier.settings.schema.safeParse(withKeptSecrets(input.settings, profile, secretFields));
      if (!parsed.success) {
        const errors = zodFieldErrors(parsed.error).map((e) => ({ ...e, field: `settings.${e.field}` }));
        throw new AppError("bad_request", "settings are not valid for this courier.", { errors });
      }
      settings = sealProfileSettings(parsed.data, profile, secretFields);
    }
    const changes = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.service !== undefined ? { service: input.service ?? null } : {}),
      ...(settings !== undefined ? { settings } : {}),
    };
    const [row] = await tx.update(courierProfiles).set(changes).where(eq(courierProfiles.id, id)).returning();
    await recordAudit(tx, {
      ...audit,
      accountId: profile.accountId,
      actorUserId: actor.userId,
      action: "courier_profile.updated",
      targetId: id,
      // Which settings were set, never their values (secrets are among them).
      details: { ...changes, ...(settings !== undefined ? { settings: Object.keys(settings) } : {}) },
    });
    return toCourierProfileView(row!);
  });
}
