import { expect, signInWith, test } from "./fixtures";

test("a signed-out visitor is sent to sign in and comes back to the page asked for", async ({ page, owner }) => {
  await page.goto("/dashboard/api-keys");
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fdashboard%2Fapi-keys$/);
  await signInWith(page, owner);
  await expect(page).toHaveURL(/\/dashboard\/api-keys$/);
  await expect(page.getByRole("heading", { name: "API keys", level: 1 })).toBeVisible();
});

test("a wrong password is refused with a message", async ({ page, owner }) => {
  await page.goto("/sign-in");
  await signInWith(page, { ...owner, password: "not-the-password" });
  await expect(page.getByRole("alert").filter({ hasText: "The email or password is wrong." })).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
  await expect(page).toHaveURL(/\/sign-in/);
});

test("signing out ends the session", async ({ page, owner, signIn }) => {
  await signIn(owner);
  await expect(page.getByRole("heading", { name: `E2E shop`, level: 1 })).toBeVisible();
  // Named by what it shows, the email here (the user has no display name), then what it is.
  const menu = page.getByRole("button", { name: /account menu$/ });
  await expect(menu).toContainText(owner.email);
  await menu.click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fdashboard$/);
});
