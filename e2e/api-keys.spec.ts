import { getDb } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { API_KEY_PERMISSIONS } from "@/lib/api-key-permissions";
import { API_KEY_PREFIX, generateApiKey, hashApiKey } from "@/server/auth/api-key-secret";
import { expect, navLink, newUser, test } from "./fixtures";

test("an owner creates a key, uses it once, and revokes it", async ({ page, request, owner, signIn }) => {
  const name = `Checkout ${test.info().testId}`;
  await signIn(owner);
  await navLink(page, "API keys").click();

  await page.getByRole("button", { name: "Create key" }).first().click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByRole("button", { name: "Create key" }).click();
  await expect(dialog.getByText("Copy this key now: it will not be shown again.")).toBeVisible();
  const key = (await dialog.getByTestId("new-api-key").textContent()) ?? "";
  expect(key).toMatch(/^svc_[0-9A-Za-z]{40,}$/);
  await dialog.getByRole("button", { name: "I have stored the key" }).click();

  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText(`svc_****${key.slice(-4)}`);
  await expect(page.getByText(key)).toHaveCount(0);

  expect((await request.get("/api/health")).status()).toBe(200);
  const withKey = { headers: { "X-API-Key": key } };
  expect((await request.get("/api/v2/configurations/courier-profiles", withKey)).status()).toBe(200);

  await row.getByRole("button", { name: `Revoke API key ${name}` }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText(`Revoke “${name}”?`);
  await confirm.getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByText(`API key “${name}” revoked`)).toBeVisible();
  await expect(row).toHaveCount(0);
  expect((await request.get("/api/v2/configurations/courier-profiles", withKey)).status()).toBe(401);
});

test("an owner turns duplicate prevention on and narrows a key's permissions", async ({ page, owner, signIn }) => {
  const name = `ERP ${test.info().testId}`;
  await signIn(owner);
  await page.goto("/dashboard/api-keys");
  await page.getByRole("button", { name: "Create key" }).first().click();
  await page.getByRole("dialog").getByLabel("Name").fill(name);
  await page.getByRole("dialog").getByRole("button", { name: "Create key" }).click();
  await page.getByRole("button", { name: "I have stored the key" }).click();

  const row = page.getByRole("row").filter({ hasText: name });
  await row.getByRole("switch", { name: `Prevent duplicate orders with ${name}` }).click();
  await expect(row.getByRole("switch")).toBeChecked();
  await expect(page.getByText(`Duplicate prevention on for “${name}”`)).toBeVisible();

  await row.getByRole("button", { name: `Edit permissions of ${name}` }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("shipping-orders:write").uncheck();
  await dialog.getByRole("button", { name: "Save permissions" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(row).not.toContainText("All permissions");
  await expect(row).toContainText("shipping-orders:read");

  await page.reload();
  await expect(page.getByRole("row").filter({ hasText: name }).getByRole("switch")).toBeChecked();
});

test("the name is required, and the dialog says so", async ({ page, owner, signIn }) => {
  await signIn(owner);
  await page.goto("/dashboard/api-keys");
  await page.getByRole("button", { name: "Create key" }).first().click();
  await page.getByRole("dialog").getByRole("button", { name: "Create key" }).click();
  await expect(page.getByRole("dialog").getByText("Must have 1 to 100 characters.")).toBeVisible();
});

test("a member sees the keys but cannot change them", async ({ page, member, signIn }) => {
  await signIn(member);
  await page.goto("/dashboard/api-keys");
  await expect(page.getByRole("heading", { name: "API keys", level: 1 })).toBeVisible();
  await expect(page.getByRole("button", { name: "Create key" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Revoke/ })).toHaveCount(0);
});

test("an owner sets a key's rate limit when creating it, changes it, and the API applies it", async ({
  page,
  request,
  owner,
  signIn,
}) => {
  const name = `Limited ${test.info().testId}`;
  await signIn(owner);
  await page.goto("/dashboard/api-keys");
  await page.getByRole("button", { name: "Create key" }).first().click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel("Rate limit (requests per minute)").fill("120");
  await dialog.getByRole("button", { name: "Create key" }).click();
  const key = (await dialog.getByTestId("new-api-key").textContent()) ?? "";
  await dialog.getByRole("button", { name: "I have stored the key" }).click();

  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("120/min");
  await row.getByRole("button", { name: `Edit rate limit of ${name}` }).click();
  const edit = page.getByRole("dialog");
  await edit.getByLabel("Rate limit (requests per minute)").fill("0");
  await edit.getByRole("button", { name: "Save rate limit" }).click();
  await expect(edit.getByText("Must be a whole number from 1 to 100000.")).toBeVisible();
  await edit.getByLabel("Rate limit (requests per minute)").fill("300");
  await edit.getByRole("button", { name: "Save rate limit" }).click();
  await expect(page.getByText(`Rate limit of “${name}” set to 300 per minute`)).toBeVisible();
  await expect(row).toContainText("300/min");

  const response = await request.get("/api/v2/configurations/courier-profiles", { headers: { "X-API-Key": key } });
  expect(response.headers()["ratelimit-limit"]).toBe("300");
});

test("the pager turns pages of API keys and knows the ends", async ({ page, signIn }) => {
  // An account of its own with 21 keys: two pages of 20, whatever other tests of this worker create.
  const user = await newUser({ accountName: `Pager ${test.info().testId}` });
  const db = await getDb();
  // Written as createApiKey writes them: 21 creations in a moment are past key creation's per-user throttle.
  await db.insert(apiKeys).values(
    Array.from({ length: 21 }, (_, i) => {
      const key = generateApiKey(API_KEY_PREFIX);
      return {
        accountId: user.accountId,
        name: `Key ${i + 1}`,
        keyHash: hashApiKey(key),
        suffix: key.slice(-4),
        permissions: [...API_KEY_PERMISSIONS],
        createdByUserId: user.userId,
        // In creation order, as the list sorts them (newest first).
        createdAt: new Date(Date.now() - (21 - i) * 1000),
      };
    }),
  );
  await signIn(user);
  await page.goto("/dashboard/api-keys");
  const pager = page.getByRole("navigation", { name: "API key pages" });
  await expect(pager).toContainText("Page 1 of 2");
  await expect(pager.getByRole("button", { name: "Previous" })).toBeDisabled();
  await expect(page.getByRole("row").filter({ hasText: "Key 21" })).toBeVisible();

  await pager.getByRole("button", { name: "Next" }).click();
  await expect(pager).toContainText("Page 2 of 2");
  await expect(pager.getByRole("button", { name: "Next" })).toBeDisabled();
  await expect(page.getByRole("row").filter({ hasText: "Key 1" })).toHaveCount(1);
  await expect(page.getByRole("row").filter({ hasText: "Key 21" })).toHaveCount(0);

  await pager.getByRole("button", { name: "Previous" }).click();
  await expect(pager).toContainText("Page 1 of 2");
  await expect(page.getByRole("row").filter({ hasText: "Key 21" })).toBeVisible();
});
