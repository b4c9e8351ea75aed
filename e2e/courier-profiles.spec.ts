import { expect, navLink, test } from "./fixtures";

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
    await dialog.getByLabel("Name").fill(name);
    await dialog.getByRole("combobox", { name: "Default service" }).click();
    await page.getByRole("option", { name: service }).click();
    await dialog.getByLabel("Settings (JSON)").fill('{ "trackingStepMinutes": 5 }');
    await dialog.getByRole("button", { name: "Create profile" }).click();
    await expect(dialog).toHaveCount(0);
  }

  const secondRow = page.getByRole("row").filter({ hasText: second });
  await secondRow.getByRole("button", { name: `Make ${second} the default profile` }).click();
  await expect(secondRow).toContainText("Default");
  await expect(page.getByRole("row").filter({ hasText: first })).not.toContainText("Default");
});

test("settings that are not JSON are refused before anything is sent", async ({ page, owner, signIn }) => {
  await signIn(owner);
  await page.goto("/dashboard/courier-profiles");
  await page.getByRole("button", { name: "New profile" }).first().click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill("Broken");
  await dialog.getByLabel("Settings (JSON)").fill("{ trackingStepMinutes: 5 ");
  await dialog.getByRole("button", { name: "Create profile" }).click();
  await expect(dialog.getByText(/Settings must be valid JSON/)).toBeVisible();
});
