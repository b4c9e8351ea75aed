import { expect, navLink, test } from "./fixtures";

test("an owner activates a source, sees it listed, and deactivates it", async ({ page, owner, signIn }) => {
  const identifier = `store-${test.info().testId}`;
  await signIn(owner);
  await navLink(page, "Sources").click();
  await expect(page.getByRole("row").filter({ hasText: "Built in" })).toContainText("api");

  await page.getByLabel("Reference source").fill("shopify");
  await page.getByLabel("Source identifier").fill(identifier);
  await page.getByLabel("Name (optional)").fill("Czech store");
  await page.getByRole("button", { name: "Activate", exact: true }).click();
  await expect(page.getByText(`Source shopify / ${identifier} activated`)).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: identifier });
  await expect(row).toContainText("Czech store");

  await page.getByLabel("Reference source").fill("shopify");
  await page.getByLabel("Source identifier").fill(identifier);
  await page.getByRole("button", { name: "Activate", exact: true }).click();
  await expect(page.getByText("This pair is already active.")).toBeVisible();

  await row.getByRole("button", { name: `Deactivate source shopify / ${identifier}` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Deactivate" }).click();
  await expect(row).toHaveCount(0);
});

test("the activate form names the missing fields", async ({ page, owner, signIn }) => {
  await signIn(owner);
  await page.goto("/dashboard/sources");
  await page.getByRole("button", { name: "Activate", exact: true }).click();
  // Under each input, in the words of the screen (its label names the field, not the API's name for it).
  await expect(page.getByText("Must have 1 to 64 characters.")).toHaveCount(2);
  await expect(page.getByText(/referenceSource|sourceIdentifier/)).toHaveCount(0);
});
