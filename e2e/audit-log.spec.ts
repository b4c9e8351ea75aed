import { expect, navLink, test } from "./fixtures";

test("owners read the audit log: who changed what, from where", async ({ page, owner, signIn }) => {
  const name = `Audited ${test.info().testId}`;
  await signIn(owner);
  await navLink(page, "API keys").click();
  await page.getByRole("button", { name: "Create key" }).first().click();
  await page.getByRole("dialog").getByLabel("Name").fill(name);
  await page.getByRole("dialog").getByRole("button", { name: "Create key" }).click();
  await page.getByRole("button", { name: "I have stored the key" }).click();

  await navLink(page, "Audit log").click();
  const row = page.getByRole("row").filter({ hasText: `name: ${name}` });
  await expect(row).toContainText("API key created");
  await expect(row).toContainText(owner.email);
});

test("members do not see the audit log in the navigation, and opening it explains why", async ({
  page,
  member,
  signIn,
}) => {
  await signIn(member);
  await expect(navLink(page, "Orders")).toBeVisible();
  await expect(navLink(page, "Audit log")).toHaveCount(0);
  await page.goto("/dashboard/audit-log");
  await expect(page.getByRole("heading", { name: "Only owners can see the audit log" })).toBeVisible();
});

test("staff read a partner's audit log", async ({ page, owner, staff, apiKey, signIn }) => {
  // The fixture key's creation is on the owner's record, whichever test of the worker runs first.
  expect(apiKey).toMatch(/^svc_/);
  await signIn(staff);
  await page.goto(`/dashboard/audit-log?account=${owner.accountId}`);
  await expect(page.getByRole("table", { name: "Audit events" })).toContainText(owner.email);
});
