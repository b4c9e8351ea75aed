/** What each recorded action means, in words; an action added later shows its code until it gets a label here. */
export const auditActionLabel: Record<string, string> = {
  "api_key.created": "API key created",
  "api_key.updated": "API key changed",
  "api_key.revoked": "API key revoked",
  "source.activated": "Source activated",
  "source.deactivated": "Source deactivated",
  "courier_profile.created": "Courier profile created",
  "courier_profile.default_set": "Default courier profile changed",
  "courier_profile.updated": "Courier profile changed",
  "courier_profile.deleted": "Courier profile deleted",
  "courier_profile.archived": "Courier profile archived (used by orders)",
  "user.signed_in": "Signed in",
  "user.created": "User created (admin CLI)",
  "membership.created": "Member added (admin CLI)",
  "membership.role_changed": "Member's role changed (admin CLI)",
  "user.staff_granted": "Staff rights granted (admin CLI)",
  "user.staff_revoked": "Staff rights revoked (admin CLI)",
};

/** `{ name: "Shop", permissions: ["labels:read"] }` → "name: Shop · permissions: labels:read". */
export function describeDetails(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(
      ([key, value]) =>
        `${key}: ${Array.isArray(value) ? value.join(", ") || "none" : typeof value === "object" && value !== null ? JSON.stringify(value) : String(value)}`,
    )
    .join(" · ");
}
