import { expect, navLink, orderBody, test } from "./fixtures";

test("staff see a partner's validation result with its request; another partner does not", async ({
  page,
  request,
  owner,
  otherOwner,
  staff,
  apiKey,
  sandboxProfile,
  signIn,
}) => {
  const reference = `VR-${test.info().testId.slice(0, 8)}`;
  const validated = await request.post(
    `/api/v2/couriers/sandbox/shipping-orders/validate?profile=${sandboxProfile.id}`,
    {
      headers: { "X-API-Key": apiKey, "content-type": "application/svc.shipping-order+json" },
      data: orderBody({ ReferenceNumber: reference, Parcels: [{ Weight: 99 }] }),
    },
  );
  expect(validated.status()).toBe(200);

  await signIn(staff);
  await navLink(page, "Validation results").click();
  await expect(page.getByRole("combobox", { name: "Results of" })).toHaveText("All accounts");
  await page.getByLabel("Reference number contains").fill(reference);
  await page.getByRole("button", { name: "Apply filters" }).click();
  const row = page.getByRole("row").filter({ hasText: reference });
  await expect(row).toContainText(`E2E shop ${test.info().workerIndex}`);
  await expect(row).toContainText("1 error");
  await row.getByRole("button", { name: /^View validation of/ }).click();
  const dialog = page.getByRole("dialog", { name: `Validation of ${reference}` });
  await expect(dialog).toContainText("WEIGHT_LIMIT_EXCEEDED");
  await expect(dialog).toContainText("Parcels[0].Weight");
  await expect(dialog.getByRole("region", { name: "Request (JSON)" })).toContainText(
    `"ReferenceNumber": "${reference}"`,
  );
  await dialog.getByRole("button", { name: "Close" }).click();

  await page.reload();
  await expect(page.getByLabel("Reference number contains")).toHaveValue(reference);
  await expect(page.getByRole("row").filter({ hasText: reference })).toBeVisible();

  await signIn(otherOwner);
  await page.goto(`/dashboard/validation-results?reference=${reference}`);
  await expect(page.getByRole("heading", { name: "No validation results match these filters" })).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Results of" })).toHaveCount(0);

  await signIn(owner);
  await page.goto(`/dashboard/validation-results?reference=${reference}`);
  await expect(page.getByRole("row").filter({ hasText: reference })).toContainText("Error");
});
