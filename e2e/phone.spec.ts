import type { Page } from "@playwright/test";
import { createOrderViaApi, expect, orderBody, test, unique } from "./fixtures";

test.use({ viewport: { width: 390, height: 844 } });

/** Nothing wider than the screen: a page that scrolls sideways hides its right-hand columns. */
async function expectNoSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
}

test("on a phone, API keys are cards with their switch and Revoke on screen; the new key and focus are where the user is", async ({
  page,
  owner,
  signIn,
}) => {
  const name = `Phone ${unique()}`;
  await signIn(owner);
  await page.goto(`/dashboard/api-keys?account=${owner.accountId}`);
  await page.getByRole("button", { name: "Create key" }).first().click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByRole("button", { name: "Create key" }).click();
  // The key is what the user came for: focus lands on its Copy button, not on the dialog box.
  await expect(dialog.getByRole("button", { name: "Copy" })).toBeFocused();
  await dialog.getByRole("button", { name: "I have stored the key" }).click();

  await expectNoSidewaysScroll(page);
  const row = page.getByRole("row").filter({ hasText: name });
  const toggle = row.getByRole("switch", { name: `Prevent duplicate orders with ${name}` });
  await expect(toggle).toBeInViewport({ ratio: 1 });
  await toggle.click();
  await expect(toggle).toBeChecked();
  const revoke = row.getByRole("button", { name: `Revoke API key ${name}` });
  await revoke.scrollIntoViewIfNeeded();
  await expect(revoke).toBeInViewport({ ratio: 1 });
  await revoke.click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByText(`API key “${name}” revoked`)).toBeVisible();
  // The row is gone; focus goes to "Create key" rather than falling to the page's body.
  await expect(page.getByRole("button", { name: "Create key" }).first()).toBeFocused();
});

test("on a phone, orders are cards with status and reference on screen, and the order opens", async ({
  page,
  request,
  owner,
  apiKey,
  sandboxProfile,
  signIn,
}) => {
  const order = await createOrderViaApi(
    request,
    apiKey,
    sandboxProfile.id,
    orderBody({ ReferenceNumber: `PHONE-A-VERY-LONG-REFERENCE-${unique()}` }),
  );
  await signIn(owner);
  await page.goto(`/dashboard/orders?account=${owner.accountId}&reference=${order.referenceNumber}`);
  await expectNoSidewaysScroll(page);
  const row = page.getByRole("row").filter({ hasText: order.shippingNumber[0]! });
  // Each value says what it is on the card (the column's name is drawn before it), status included.
  await expect(row.locator('td[data-label="Status"]')).toBeInViewport({ ratio: 1 });
  const link = row.getByRole("link", { name: order.referenceNumber });
  await expect(link).toBeInViewport({ ratio: 1 });
  await link.click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(order.referenceNumber);
  await expectNoSidewaysScroll(page);
  await expect(page.getByRole("link", { name: "Download label" })).toBeInViewport();
});
