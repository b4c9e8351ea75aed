import { readFileSync } from "node:fs";
import { packetaPointId, seedDirectories } from "./directory";
import { E2E_PACKETA_PASSWORD } from "./environment";
import { expect, orderBody, pageErrors, test, unique } from "./fixtures";

// The app talks to the fake Packeta that playwright.config.ts starts (COURIER_PACKETA_URL, see environment.ts).
// Pickup points come from the e2e database's directory, which validation checks them against.
test.beforeAll(seedDirectories);

test("an owner sets up Packeta with the typed form, checks the credentials and creates an order through it", async ({
  page,
  owner,
  signIn,
  browserErrors,
}) => {
  const name = `Packeta ${unique()}`;
  const reference = `PKT-${unique()}`;
  await signIn(owner);
  await page.goto(`/dashboard/courier-profiles?account=${owner.accountId}`);
  await page.getByRole("button", { name: "New profile" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New courier profile" });
  await dialog.getByRole("combobox", { name: "Courier", exact: true }).click();
  await page.getByRole("option", { name: /^Packeta/ }).click();
  await dialog.getByLabel("Name", { exact: true }).fill(name);
  const password = dialog.getByLabel("API password");
  await expect(password).toHaveAttribute("type", "password");
  await expect(password).toHaveAttribute("autocomplete", "new-password");
  await expect(dialog.getByRole("group", { name: "Home-delivery carriers (optional)" })).toBeVisible();

  // A password of the wrong length is said at its input before anything is sent.
  await password.fill("too-short");
  await dialog.getByRole("button", { name: "Create profile" }).click();
  await expect(dialog.getByText("Exactly 32 characters. This has 9.")).toBeVisible();
  await expect(dialog.getByText("Required.")).toBeVisible();
  await expect(password).toBeFocused();
  await password.fill(E2E_PACKETA_PASSWORD);
  await dialog.getByLabel("Sender label").fill("e2e-shop");
  await dialog.getByRole("button", { name: "Create profile" }).click();
  await expect(dialog).toHaveCount(0);

  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText(`****${E2E_PACKETA_PASSWORD.slice(-4)}`);
  await expect(row).not.toContainText(E2E_PACKETA_PASSWORD);
  await row.getByRole("button", { name: `Check credentials of ${name}` }).click();
  await expect(row.getByRole("status")).toHaveText("Credentials work");

  // The edit dialog shows the saved secret masked; left empty, it is kept.
  await row.getByRole("button", { name: `Edit ${name}` }).click();
  const edit = page.getByRole("dialog", { name: `Edit ${name}` });
  await expect(edit.getByLabel("API password")).toHaveValue("");
  await expect(edit.getByText(`Saved: ****${E2E_PACKETA_PASSWORD.slice(-4)} — leave empty to keep it.`)).toBeVisible();
  await expect(edit.getByLabel("Sender label")).toHaveValue("e2e-shop");
  await edit.getByLabel("Courier timeout (ms) (optional)").fill("20000");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(edit).toHaveCount(0);
  await expect(row).toContainText("20000");
  await row.getByRole("button", { name: `Check credentials of ${name}` }).click();
  await expect(row.getByRole("status")).toHaveText("Credentials work");

  // An order through the dashboard's order form: Packeta's number is the packet's barcode, Z….
  await page.goto(`/dashboard/orders/new?account=${owner.accountId}`);
  await page.getByRole("combobox", { name: "Courier", exact: true }).click();
  await page.getByRole("option", { name: "Packeta" }).click();
  await page.getByRole("combobox", { name: "Courier profile" }).click();
  await page.getByRole("option", { name }).click();
  await page.getByLabel("Reference number").fill(reference);
  await page.getByRole("combobox", { name: "Service" }).click();
  await page.getByRole("option", { name: /\(PICKUP_POINT\)/ }).click();
  await page.getByLabel("Pickup point (optional)").fill(packetaPointId());
  await page.getByLabel("Name", { exact: true }).fill("Jana Nováková");
  await page.getByLabel("Street").fill("Dlouhá 12");
  await page.getByLabel("City").fill("Praha");
  await page.getByLabel("Zip").fill("110 00");
  await page.getByLabel("Country").fill("CZ");
  await page.getByLabel("Email (optional)").fill("jana@example.com");
  await page.getByLabel("Parcel 1 weight (kg)").fill("1.5");
  // Packeta requires a value: the cash on delivery gives it one.
  await page.getByLabel("Amount (optional)").fill("250");
  await page.getByRole("combobox", { name: "Currency" }).click();
  await page.getByRole("option", { name: "CZK" }).click();
  await page.getByRole("button", { name: "Create order" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(reference);
  const parcels = page.getByRole("region", { name: "Parcels and shipping numbers" });
  await expect(parcels.getByRole("cell").nth(1)).toHaveText(/^Z\d+$/);

  // The order page tells the courier's own tracking text and offers Packeta's label.
  await expect(page.getByRole("list", { name: "Tracking events, latest first" })).toContainText(/Packeta/);
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download label" }).click();
  expect(
    readFileSync(await (await download).path())
      .subarray(0, 5)
      .toString(),
  ).toBe("%PDF-");
  expect(pageErrors(browserErrors)).toEqual([]);
});

test("a wrong password: the check says Packeta's words and code", async ({ page, owner, signIn }) => {
  const name = `Packeta wrong ${unique()}`;
  await signIn(owner);
  await page.goto(`/dashboard/courier-profiles?account=${owner.accountId}`);
  await page.getByRole("button", { name: "New profile" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New courier profile" });
  await dialog.getByRole("combobox", { name: "Courier", exact: true }).click();
  await page.getByRole("option", { name: /^Packeta/ }).click();
  await dialog.getByLabel("Name", { exact: true }).fill(name);
  await dialog.getByLabel("API password").fill("x".repeat(32));
  await dialog.getByLabel("Sender label").fill("e2e-shop");
  await dialog.getByRole("button", { name: "Add a country" }).click();
  await dialog.getByLabel("Country (row 1)").fill("sk");
  await dialog.getByLabel("Carrier ID (row 1)").fill("131");
  await dialog.getByRole("button", { name: "Create profile" }).click();
  await expect(dialog).toHaveCount(0);

  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("SK → 131");
  await row.getByRole("button", { name: `Check credentials of ${name}` }).click();
  const status = row.getByRole("status");
  await expect(status).toContainText("Credentials refused");
  await expect(status).toContainText("COURIER_AUTH_FAILED");
});

test("a packet Packeta refuses is listed with Packeta's words and the field it named", async ({
  page,
  request,
  owner,
  apiKey,
  packetaProfile,
  signIn,
}) => {
  const reference = `REFUSE-${unique()}`;
  const response = await request.post(`/api/v2/couriers/packeta/shipping-orders?profile=${packetaProfile.id}`, {
    headers: { "X-API-Key": apiKey, "content-type": "application/svc.shipping-order+json" },
    data: orderBody({ ReferenceNumber: reference, PickupPoint: packetaPointId(), InsurancePrice: 500 }),
  });
  expect(response.status(), await response.text()).toBe(200);
  const { failed } = (await response.json()) as { failed: { code: string }[] };
  expect(failed).toEqual([expect.objectContaining({ code: "COURIER_REJECTED" })]);

  await signIn(owner);
  await page.goto(`/dashboard/orders/refused?account=${owner.accountId}`);
  const row = page.getByRole("row").filter({ hasText: reference });
  await expect(row).toContainText("Refused");
  await expect(row).toContainText("Packeta");
  await expect(row).toContainText("Field: Reference number");
  await expect(row).toContainText("test trigger");
});

test("the order form carries a Packeta order without COD: insured value, note, external reference, parcel size", async ({
  page,
  request,
  owner,
  apiKey,
  packetaProfile,
  signIn,
}) => {
  const reference = `PKT-FORM-${unique()}`;
  await signIn(owner);
  await page.goto(`/dashboard/orders/new?account=${owner.accountId}`);
  await page.getByRole("combobox", { name: "Courier", exact: true }).click();
  await page.getByRole("option", { name: "Packeta" }).click();
  await page.getByRole("combobox", { name: "Courier profile" }).click();
  await page.getByRole("option", { name: packetaProfile.name }).click();
  // PPL's variable symbol is not offered for Packeta.
  await expect(page.getByLabel("Variable symbol (optional)")).toHaveCount(0);
  await page.getByLabel("Reference number").fill(reference);
  await page.getByLabel("External reference (optional)").fill("ERP-42");
  await page.getByLabel("Note (optional)").fill("Fragile: glass");
  await page.getByRole("combobox", { name: "Service" }).click();
  await page.getByRole("option", { name: /\(PICKUP_POINT\)/ }).click();
  await page.getByLabel("Pickup point (optional)").fill(packetaPointId());
  await page.getByLabel("Name", { exact: true }).fill("Jana Nováková");
  await page.getByLabel("Street").fill("Dlouhá 12");
  await page.getByLabel("City").fill("Praha");
  await page.getByLabel("Zip").fill("110 00");
  await page.getByLabel("Country").fill("CZ");
  await page.getByLabel("Email (optional)").fill("jana@example.com");
  await page.getByLabel("Parcel 1 weight (kg)").fill("1.5");
  await page.getByLabel("Parcel 1 length (cm, optional)").fill("30");
  await page.getByLabel("Parcel 1 width (cm, optional)").fill("20");
  await page.getByLabel("Parcel 1 height (cm, optional)").fill("10");
  // No cash on delivery: Packeta then needs the insured value, which the form now carries.
  await page.getByLabel("Insured value (optional)").fill("800");
  await page.getByRole("button", { name: "Create order" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(reference);

  const id = new URL(page.url()).pathname.split("/").at(-1)!;
  const stored = await request.get(`/api/v2/shipping-orders/${id}`, { headers: { "X-API-Key": apiKey } });
  expect(stored.status()).toBe(200);
  expect(await stored.json()).toMatchObject({
    referenceNumber: reference,
    externalReference: "ERP-42",
    insurancePrice: 800,
    note: "Fragile: glass",
    parcels: [expect.objectContaining({ weight: 1.5, length: 30, width: 20, height: 10 })],
  });
});
