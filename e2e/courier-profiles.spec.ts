import { expect, navLink, test, unique } from "./fixtures";

test("an owner creates courier profiles and moves the default", async ({ page, owner, signIn }) => {
  const first = `Standard ${test.info().testId}`;
  const second = `Express ${test.info().testId}`;
  await signIn(owner);
  await navLink(page, "Courier profiles").click();

  for (const [name, service] of [
    [first, "Standard delivery (STANDARD)"],
    [second, "Express delivery (EXPRESS)"],
  ] as const) {
    await page.getByRole("button", { name: "New profile" }).first().click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Name", { exact: true }).fill(name);
    await dialog.getByRole("combobox", { name: "Default service" }).click();
    await page.getByRole("option", { name: service, exact: true }).click();
    await dialog.getByLabel("Tracking step (minutes) (optional)").fill("5");
    await dialog.getByRole("button", { name: "Create profile" }).click();
    await expect(dialog).toHaveCount(0);
  }

  const secondRow = page.getByRole("row").filter({ hasText: second });
  await secondRow.getByRole("button", { name: `Set default: ${second}` }).click();
  await expect(secondRow).toContainText("Default");
  await expect(page.getByRole("row").filter({ hasText: first })).not.toContainText("Default");
  await expect(secondRow).toContainText("Tracking step (minutes)");
});

test("settings out of their range are said at their inputs before anything is sent", async ({
  page,
  owner,
  signIn,
}) => {
  await signIn(owner);
  await page.goto("/dashboard/courier-profiles");
  await page.getByRole("button", { name: "New profile" }).first().click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name", { exact: true }).fill("Broken");
  const step = dialog.getByLabel("Tracking step (minutes) (optional)");
  await step.fill("-5");
  await dialog.getByLabel("Courier timeout (ms) (optional)").fill("0");
  await dialog.getByRole("button", { name: "Create profile" }).click();
  await expect(dialog.getByText("Must be a number above 0, up to 10080.")).toBeVisible();
  await expect(dialog.getByText("Must be a whole number from 1 to 120000.")).toBeVisible();
  // The first input with a message takes focus.
  await expect(dialog.getByLabel("Courier timeout (ms) (optional)")).toBeFocused();
  await expect(step).toHaveAttribute("aria-invalid", "true");
  await step.fill("");
  await dialog.getByLabel("Courier timeout (ms) (optional)").fill("");
  await dialog.getByRole("button", { name: "Create profile" }).click();
  await expect(dialog).toHaveCount(0);
});

test("an owner edits a profile, deletes an unused one, and one that orders used is archived", async ({
  page,
  request,
  owner,
  apiKey,
  signIn,
}) => {
  const used = `Used ${unique()}`;
  const spare = `Spare ${unique()}`;
  await signIn(owner);
  await page.goto(`/dashboard/courier-profiles?account=${owner.accountId}`);
  for (const name of [used, spare]) {
    await page.getByRole("button", { name: "New profile" }).first().click();
    await page.getByRole("dialog").getByLabel("Name", { exact: true }).fill(name);
    await page.getByRole("dialog").getByRole("button", { name: "Create profile" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
  }

  const renamed = `${spare} (renamed)`;
  await page
    .getByRole("row")
    .filter({ hasText: spare })
    .getByRole("button", { name: `Edit ${spare}` })
    .click();
  const dialog = page.getByRole("dialog", { name: `Edit ${spare}` });
  await dialog.getByLabel("Name", { exact: true }).fill("");
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(dialog.getByText("Must have 1 to 100 characters.")).toBeVisible();
  await dialog.getByLabel("Name", { exact: true }).fill(renamed);
  await dialog.getByRole("combobox", { name: "Default service" }).click();
  await page.getByRole("option", { name: "Express delivery (EXPRESS)" }).click();
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("row").filter({ hasText: renamed })).toContainText("Express");

  const profiles = await request.get("/api/v2/configurations/courier-profiles", { headers: { "X-API-Key": apiKey } });
  const usedId = ((await profiles.json()) as { items: { id: string; name: string }[] }).items.find(
    (p) => p.name === used,
  )!.id;
  const created = await request.post(`/api/v2/couriers/sandbox/shipping-orders?profile=${usedId}`, {
    headers: { "X-API-Key": apiKey, "content-type": "application/json" },
    data: {
      ReferenceNumber: `ARCH-${unique()}`,
      Recipient: { Name: "A", Street: "B 1", City: "Praha", Zip: "110 00", Country: "CZ" },
      Parcels: [{ Weight: 1 }],
    },
  });
  expect(created.status()).toBe(200);

  for (const [name, toast] of [
    [renamed, `“${renamed}” deleted`],
    [used, `“${used}” archived`],
  ] as const) {
    await page
      .getByRole("row")
      .filter({ hasText: name })
      .getByRole("button", { name: `Delete ${name}` })
      .click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete profile" }).click();
    await expect(page.getByText(toast)).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(0);
  }
});
