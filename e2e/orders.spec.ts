import { readFileSync } from "node:fs";
import { createOrderViaApi, expect, navLink, orderBody, test } from "./fixtures";

test("an order sent with a key made in the dashboard is listed, tracked and labelled; revoking the key shuts the API", async ({
  page,
  request,
  owner,
  sandboxProfile,
  signIn,
}) => {
  const keyName = `Shop ${test.info().testId}`;
  await signIn(owner);
  await navLink(page, "API keys").click();
  await page.getByRole("button", { name: "Create key" }).first().click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill(keyName);
  await dialog.getByRole("button", { name: "Create key" }).click();
  const key = (await dialog.getByTestId("new-api-key").textContent()) ?? "";
  await dialog.getByRole("button", { name: "I have stored the key" }).click();

  const order = await createOrderViaApi(
    request,
    key,
    sandboxProfile.id,
    orderBody({ Parcels: [{ Weight: 1.5 }, { Weight: 2 }], CodPrice: 250, CodCurrency: "CZK" }),
  );
  expect(order.shippingNumber).toHaveLength(2);

  await navLink(page, "Orders").click();
  const row = page.getByRole("row").filter({ hasText: order.referenceNumber });
  await expect(row).toContainText(order.shippingNumber[0]!);
  await expect(row).toContainText("Jana Nováková");
  await expect(row).toContainText("api / default");
  await expect(row).toContainText(sandboxProfile.name);

  await row.getByRole("link", { name: order.referenceNumber }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(order.referenceNumber);
  await expect(page.getByRole("region", { name: "Shipment" })).toContainText("250.00 CZK");
  await expect(page.getByRole("region", { name: "Parcels and shipping numbers" })).toContainText(
    order.shippingNumber[1]!,
  );
  const tracking = page.getByRole("region", { name: "Tracking" });
  await expect(tracking.getByRole("link", { name: /Track on the courier's site/ })).toHaveAttribute(
    "href",
    new RegExp(order.shippingNumber[0]!),
  );
  // The sandbox profile moves tracking a step every 0.6 s; each load of the page asks for the latest events.
  await expect(async () => {
    await page.reload();
    await expect(
      tracking.getByRole("list", { name: "Tracking events, latest first" }).getByRole("listitem").first(),
    ).toContainText("Delivered to the recipient", { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(tracking).toContainText("Shipment data received from the sender");
  await expect(tracking).toContainText("Sandbox depot Prague");

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download label" }).click();
  const file = await (await download).path();
  expect(readFileSync(file).subarray(0, 5).toString()).toBe("%PDF-");

  await navLink(page, "API keys").click();
  await page
    .getByRole("row")
    .filter({ hasText: keyName })
    .getByRole("button", { name: `Revoke API key ${keyName}` })
    .click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByText(`API key “${keyName}” revoked`)).toBeVisible();
  const refused = await request.post(`/api/v2/couriers/sandbox/shipping-orders?profile=${sandboxProfile.id}`, {
    headers: { "X-API-Key": key, "content-type": "application/svc.shipping-order+json" },
    data: orderBody(),
  });
  expect(refused.status()).toBe(401);
});

test("print loads the label into a frame of the page, which the label route allows for its own origin only, and prints it", async ({
  page,
  request,
  owner,
  apiKey,
  sandboxProfile,
  signIn,
}) => {
  const order = await createOrderViaApi(request, apiKey, sandboxProfile.id, orderBody());
  // Headless Chromium has no print dialog (printing a PDF frame crashes the page), so every frame's print is counted instead.
  await page.addInitScript(() => {
    window.print = () => {
      const top = window.top as Window & { printed?: number };
      top.printed = (top.printed ?? 0) + 1;
    };
  });
  await signIn(owner);
  await page.goto(`/dashboard/orders/${order.id}`);
  const label = page.waitForResponse((response) => response.url().includes(`/dashboard/orders/${order.id}/label`));
  await page.getByRole("button", { name: "Print label" }).click();
  const response = await label;
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toBe("application/pdf");
  expect(response.headers()["x-frame-options"]).toBe("SAMEORIGIN");
  expect(response.headers()["content-security-policy"]).toContain("frame-ancestors 'self'");
  await expect(page.locator(`iframe[title="Label of ${order.referenceNumber}"]`)).toBeAttached();
  await expect.poll(() => page.evaluate(() => (window as Window & { printed?: number }).printed)).toBe(1);
});

test("an order sent under a source activated in the dashboard shows that source pair", async ({
  page,
  request,
  owner,
  apiKey,
  sandboxProfile,
  signIn,
}) => {
  const identifier = `store-${test.info().testId}`;
  await signIn(owner);
  await navLink(page, "Sources").click();
  await page.getByLabel("Reference source").fill("shoptet");
  await page.getByLabel("Source identifier").fill(identifier);
  await page.getByRole("button", { name: "Activate", exact: true }).click();
  await expect(page.getByText(`Source shoptet / ${identifier} activated`)).toBeVisible();

  const order = await createOrderViaApi(
    request,
    apiKey,
    sandboxProfile.id,
    orderBody({ ReferenceSource: "shoptet", SourceIdentifier: identifier }),
  );
  expect(order).toMatchObject({ referenceSource: "shoptet", sourceIdentifier: identifier });

  await page.goto(`/dashboard/orders?referenceNumbers=${order.referenceNumber}`);
  const row = page.getByRole("row").filter({ hasText: order.referenceNumber });
  await expect(row).toContainText(`shoptet / ${identifier}`);
  await row.getByRole("link", { name: order.referenceNumber }).click();
  await expect(page.getByRole("region", { name: "Shipment" })).toContainText(`shoptet / ${identifier}`);
});

test("filters live in the URL: they survive a reload and a shared link", async ({
  page,
  context,
  request,
  owner,
  apiKey,
  sandboxProfile,
  signIn,
}) => {
  const prefix = `F-${test.info().testId.slice(0, 8)}`;
  const [a, b, c] = [`${prefix}-A`, `${prefix}-B`, `${prefix}-C`];
  for (const reference of [a, b, c])
    await createOrderViaApi(request, apiKey, sandboxProfile.id, orderBody({ ReferenceNumber: reference }));
  await signIn(owner);
  await navLink(page, "Orders").click();

  await page.getByLabel("Reference numbers").fill(`${a}, ${b}`);
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/referenceNumbers=/);
  const table = page.getByRole("table", { name: "Shipping orders" });
  await expect(table.getByRole("link", { name: a })).toBeVisible();
  await expect(table.getByRole("link", { name: b })).toBeVisible();
  await expect(table.getByRole("link", { name: c })).toHaveCount(0);

  await page.reload();
  await expect(page.getByLabel("Reference numbers")).toHaveValue(`${a}, ${b}`);
  await expect(table.getByRole("row")).toHaveCount(3);
  await expect(table.getByRole("link", { name: c })).toHaveCount(0);

  await page.getByRole("button", { name: /^Status/ }).click();
  // No "Cancelled": a cancelled shipment's order is removed (contract), so the filter does not offer it.
  await expect(page.getByRole("menuitemcheckbox", { name: "Cancelled" })).toHaveCount(0);
  await page.getByRole("menuitemcheckbox", { name: "Returned" }).click();
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/status=RETURNED/);
  await expect(page.getByRole("heading", { name: "No orders match these filters" })).toBeVisible();

  const shared = await context.newPage();
  await shared.goto(page.url());
  await expect(shared.getByRole("heading", { name: "No orders match these filters" })).toBeVisible();
  await expect(shared.getByRole("button", { name: /^Status/ })).toContainText("Returned");
  await expect(shared.getByLabel("Reference numbers")).toHaveValue(`${a}, ${b}`);
  await shared.close();

  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page).not.toHaveURL(/referenceNumbers=/);
  await expect(table.getByRole("link", { name: c })).toBeVisible();
});

test("an owner deletes an order after confirming, and it is gone from the list and the API", async ({
  page,
  request,
  owner,
  apiKey,
  sandboxProfile,
  signIn,
}) => {
  const order = await createOrderViaApi(request, apiKey, sandboxProfile.id, orderBody());
  await signIn(owner);
  await page.goto(`/dashboard/orders/${order.id}`);
  await page.getByRole("button", { name: "Cancel shipment" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText(`Cancel shipment ${order.referenceNumber}?`);
  await confirm.getByRole("button", { name: "Cancel shipment" }).click();
  await expect(page.getByText(`Shipment ${order.referenceNumber} cancelled`)).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/orders(\?|$)/);
  await expect(page.getByRole("heading", { name: "Orders", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: order.referenceNumber })).toHaveCount(0);
  expect(
    (await request.get(`/api/v2/shipping-orders/${order.id}`, { headers: { "X-API-Key": apiKey } })).status(),
  ).toBe(404);

  await page.goto(`/dashboard/orders/${order.id}`);
  await expect(page.getByRole("heading", { name: "Order not found" })).toBeVisible();
});

test("a member reads orders but is not offered deletion", async ({
  page,
  request,
  member,
  apiKey,
  sandboxProfile,
  signIn,
}) => {
  const order = await createOrderViaApi(request, apiKey, sandboxProfile.id, orderBody());
  await signIn(member);
  await page.goto(`/dashboard/orders/${order.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(order.referenceNumber);
  await expect(page.getByRole("link", { name: "Download label" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Cancel shipment" })).toHaveCount(0);
});
