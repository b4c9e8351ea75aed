import { expect, navLink, pageErrors, test, unique } from "./fixtures";

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

  const pair = { source: `shop-${unique()}`, id: "cz" };
  await navLink(page, "Sources").click();
  const activate = async () => {
    await page.getByLabel("Reference source").fill(pair.source);
    await page.getByLabel("Source identifier").fill(pair.id);
    await page.getByRole("button", { name: "Activate", exact: true }).click();
  };
  await activate();
  // The form empties itself once the pair is listed; filling it before that would be undone.
  await expect(page.getByRole("row").filter({ hasText: pair.source })).toBeVisible();
  await expect(page.getByLabel("Reference source")).toHaveValue("");
  await activate();
  await expect(page.getByText("This pair is already active.")).toBeVisible();
  expect(pageErrors(browserErrors)).toEqual([]);
});
