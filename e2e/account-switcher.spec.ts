import { expect, navLink, test } from "./fixtures";

test("staff open a partner's account, and the choice survives navigation and reload", async ({
  page,
  owner,
  staff,
  signIn,
}) => {
  const partnerAccount = `E2E shop ${test.info().workerIndex}`;
  await signIn(staff);
  await expect(page.getByText("Staff", { exact: true })).toBeVisible();

  await page.getByRole("combobox", { name: "Account" }).click();
  await page.getByRole("option", { name: partnerAccount }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard\\?account=${owner.accountId}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(partnerAccount);

  await navLink(page, "Sources").click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/sources\\?account=${owner.accountId}$`));
  await page.reload();
  await expect(page.getByRole("combobox", { name: "Account" })).toHaveText(partnerAccount);
});

test("an account the user is not in answers not found", async ({ page, member, staff, signIn }) => {
  await signIn(member);
  await page.goto(`/dashboard/api-keys?account=${staff.accountId}`);
  await expect(page.getByRole("heading", { name: "Account not found" })).toBeVisible();
});
