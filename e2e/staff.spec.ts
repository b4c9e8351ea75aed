import { expect, orderBody, sendRefusedOrder, test, unique } from "./fixtures";

test("staff land on a page of their own: failures across accounts and accounts on a failure streak", async ({
  page,
  request,
  owner,
  staff,
  apiKey,
  sandboxProfile,
  signIn,
}) => {
  const prefix = `COURIER-FAIL-ST-${unique()}`;
  for (let i = 0; i < 3; i++)
    await sendRefusedOrder(request, apiKey, sandboxProfile.id, orderBody({ ReferenceNumber: `${prefix}-${i}` }));

  await signIn(staff);
  await expect(page.getByRole("heading", { level: 1, name: "Platform overview" })).toBeVisible();
  await expect(page.getByText("Connecting a shop")).toHaveCount(0);
  const shop = `E2E shop ${test.info().workerIndex}`;
  const streaks = page.getByRole("region", { name: "Accounts whose latest attempts all failed" });
  await expect(streaks.getByRole("listitem").filter({ hasText: shop })).toContainText(/\d+ failures in a row/);
  const refusals = page.getByRole("region", { name: "Latest refusals" });
  await expect(refusals).toContainText(`${prefix}-2`);
  await refusals.getByRole("link", { name: `${prefix}-2` }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/orders/refused\\?account=${owner.accountId}`));
  await expect(page.getByRole("row").filter({ hasText: `${prefix}-2` })).toBeVisible();
});
