import { expect, navLink, pageErrors, test } from "./fixtures";

test("expected form errors are shown on the screen and never logged as browser errors", async ({
  page,
  owner,
  signIn,
  browserErrors,
}) => {
  await signIn(owner);
  await navLink(page, "API keys").click();
  await page.getByRole("button", { name: "Create key" }).first().click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Create key" }).click();
  await expect(dialog.getByText("Must have 1 to 100 characters.")).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();

  const pair = { source: `shop-${test.info().testId.slice(0, 6)}`, id: "cz" };
  await navLink(page, "Sources").click();
  for (let i = 0; i < 2; i++) {
    await page.getByLabel("Reference source").fill(pair.source);
    await page.getByLabel("Source identifier").fill(pair.id);
    await page.getByRole("button", { name: "Activate", exact: true }).click();
  }
  await expect(page.getByText("This pair is already active.")).toBeVisible();
  expect(pageErrors(browserErrors)).toEqual([]);
});
