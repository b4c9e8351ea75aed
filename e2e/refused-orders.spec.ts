import { createOrderViaApi, expect, navLink, orderBody, pageErrors, sendRefusedOrder, test, unique } from "./fixtures";

test("an order the courier refused is listed, counted on the overview, and fixed and created from the dashboard", async ({
  page,
  request,
  owner,
  apiKey,
  sandboxProfile,
  signIn,
  browserErrors,
}) => {
  const reference = `COURIER-FAIL-${unique()}`;
  const fixed = `FIXED-${unique()}`;
  await sendRefusedOrder(
    request,
    apiKey,
    sandboxProfile.id,
    orderBody({ ReferenceNumber: reference, Note: "leave at the door", Parcels: [{ Weight: 2, Length: 30 }] }),
  );

  await signIn(owner);
  await expect(page.getByRole("link", { name: /Refused orders/ })).toContainText(/[1-9]/);
  await navLink(page, "Orders").click();
  await page.getByRole("navigation", { name: "Order views" }).getByRole("link", { name: "Refused" }).click();
  const row = page.getByRole("row").filter({ hasText: reference });
  await expect(row).toContainText("Refused");
  await expect(row).toContainText("Sandbox courier");
  await expect(row).toContainText(sandboxProfile.name);
  await expect(row).toContainText("API key “E2E fixture key”");

  await row.getByRole("link", { name: `Fix and retry ${reference}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Fix and send again" })).toBeVisible();
  await expect(page.getByLabel("Reference number")).toHaveValue(reference);
  await expect(page.getByLabel("Parcel 1 weight (kg)")).toHaveValue("2");
  await expect(page.getByRole("combobox", { name: "Courier profile" })).toHaveText(sandboxProfile.name);

  // Unchanged, the courier refuses it again, and says so where the form is.
  await page.getByRole("button", { name: "Create order" }).click();
  await expect(page.getByRole("region", { name: "Refused by the courier" })).toBeVisible();

  await page.getByLabel("Reference number").fill(fixed);
  await page.getByRole("button", { name: "Validate order" }).click();
  await expect(page.getByRole("region", { name: "The order passes validation" })).toBeVisible();
  await page.getByRole("button", { name: "Create order" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(fixed);
  await expect(page.getByText(`Order ${fixed} created`)).toBeVisible();

  // What the form had no input for went along as it was sent.
  const order = await request.get(`/api/v2/shipping-orders?referenceNumbers=${fixed}`, {
    headers: { "X-API-Key": apiKey },
  });
  const [created] = ((await order.json()) as { items: { note: string | null; parcels: { length: number | null }[] }[] })
    .items;
  expect(created).toMatchObject({ parcels: [expect.objectContaining({ length: 30 })] });
  expect(pageErrors(browserErrors)).toEqual([]);
});

test("a create's validation result records the courier's refusal and opens in the order form as sent", async ({
  page,
  request,
  owner,
  apiKey,
  sandboxProfile,
  signIn,
}) => {
  const reference = `COURIER-FAIL-VR-${unique()}`;
  // Keys in the order a shop might send them, which a JSON column would keep and jsonb would not.
  const sent = {
    Parcels: [{ Weight: 1 }],
    ReferenceNumber: reference,
    Recipient: { Zip: "110 00", Name: "Jana Nováková", Street: "Dlouhá 12", City: "Praha", Country: "CZ" },
  };
  await sendRefusedOrder(request, apiKey, sandboxProfile.id, sent);

  await signIn(owner);
  await navLink(page, "Validation results").click();
  const row = page.getByRole("row").filter({ hasText: reference });
  await expect(row).toContainText("Refused by the courier");
  await expect(row).toContainText("Sandbox courier");
  await row.getByRole("button", { name: /^View validation of/ }).click();
  const dialog = page.getByRole("dialog", { name: `Validation of ${reference}` });
  await expect(dialog.getByRole("region", { name: "Outcome" })).toContainText("Refused by the courier:");
  await expect(dialog).not.toContainText("No problems found");
  await expect(dialog.getByRole("region", { name: "Request (JSON)" }).locator("pre")).toHaveText(
    new RegExp(`^\\{\\s*"Parcels"[\\s\\S]*"ReferenceNumber"[\\s\\S]*"Recipient": \\{\\s*"Zip"`),
  );
  await dialog.getByRole("link", { name: "Open in the order form" }).click();
  await expect(page.getByLabel("Reference number")).toHaveValue(reference);
  await expect(page.getByLabel("Zip")).toHaveValue("110 00");
  await page.getByRole("tab", { name: "Paste JSON" }).click();
  await expect(page.getByLabel("Orders (JSON)")).toHaveValue(JSON.stringify(sent, null, 2));
});

test("an owner creates an order by hand from the orders page, and the overview's last setup step is done", async ({
  page,
  owner,
  sandboxProfile,
  signIn,
  browserErrors,
}) => {
  const reference = `HAND-${unique()}`;
  await signIn(owner);
  await navLink(page, "Orders").click();
  await page.getByRole("link", { name: "New order" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New order" })).toBeVisible();
  await page.getByRole("combobox", { name: "Courier profile" }).click();
  await page.getByRole("option", { name: sandboxProfile.name }).click();

  // An incomplete order: nothing is created, and the form says which field, in its own words.
  await page.getByLabel("Reference number").fill(reference);
  await page.getByRole("button", { name: "Create order" }).click();
  const summary = page.getByRole("region", { name: "Nothing was created: the order has errors" });
  await expect(summary).toBeVisible();
  await expect(summary.getByRole("link", { name: /^Recipient name: / })).toBeVisible();
  await expect(summary.getByRole("link", { name: /^Parcel 1 weight \(kg\): / })).toBeVisible();
  await expect(summary).not.toContainText("Parcels[0]");

  await page.getByLabel("Name", { exact: true }).fill("Petr Svoboda");
  await page.getByLabel("Street").fill("Masarykova 5");
  await page.getByLabel("City").fill("Brno");
  await page.getByLabel("Zip").fill("602 00");
  await page.getByLabel("Country").fill("CZ");
  await page.getByLabel("Email (optional)").fill("petr@example.com");
  await page.getByLabel("Parcel 1 weight (kg)").fill("3.2");
  await page.getByRole("button", { name: "Create order" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(reference);
  await expect(page.getByRole("region", { name: "Recipient" })).toContainText("Petr Svoboda");

  await navLink(page, "Overview").click();
  await expect(page.getByText("Done: Send orders to the shipping API")).toBeAttached();
  expect(pageErrors(browserErrors)).toEqual([]);
});

test("a member sees refused orders but cannot create or retry them", async ({
  page,
  request,
  member,
  apiKey,
  sandboxProfile,
  signIn,
}) => {
  const reference = `COURIER-FAIL-M-${unique()}`;
  await sendRefusedOrder(request, apiKey, sandboxProfile.id, orderBody({ ReferenceNumber: reference }));
  await signIn(member);
  await page.goto("/dashboard/orders/refused");
  await expect(page.getByRole("row").filter({ hasText: reference })).toBeVisible();
  await expect(page.getByRole("link", { name: /Fix and retry/ })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "New order" })).toHaveCount(0);
  await createOrderViaApi(request, apiKey, sandboxProfile.id, orderBody());
});
