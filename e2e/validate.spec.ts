import { expect, navLink, test } from "./fixtures";

test("an invalid order shows each message at the field it names, and the verdict gets focus", async ({
  page,
  owner,
  sandboxProfile,
  signIn,
}) => {
  expect(sandboxProfile.id).toBeTruthy();
  await signIn(owner);
  await navLink(page, "Validate").click();
  const form = page.getByRole("form", { name: "Order to validate" });
  await form.getByLabel("Reference number").fill(`V-${test.info().testId.slice(0, 8)}`);
  await form.getByLabel("Name", { exact: true }).fill("Jana Nováková");
  await form.getByLabel("Street").fill("Dlouhá 12");
  await form.getByLabel("City").fill("Praha");
  await form.getByLabel("Zip").fill("1100");
  await form.getByLabel("Country").fill("CZ");
  await form.getByLabel("Parcel 1 weight (kg)").fill("2");
  await form.getByRole("button", { name: "Add parcel" }).click();
  await form.getByLabel("Parcel 2 weight (kg)").fill("40");
  await form.getByRole("button", { name: "Validate order" }).click();

  const summary = page.getByRole("region", { name: "The order has errors" });
  await expect(summary).toBeFocused();
  await expect(summary).toContainText("2 errors and 1 warning");

  const zip = form.getByLabel("Zip");
  await expect(zip).toHaveAttribute("aria-invalid", "true");
  await expect(zip).toHaveAccessibleDescription(/Must look like 110 00/);
  const secondParcel = form.getByLabel("Parcel 2 weight (kg)");
  await expect(secondParcel).toHaveAttribute("aria-invalid", "true");
  await expect(secondParcel).toHaveAccessibleDescription(/40 kg exceeds the 31\.5 kg limit/);
  await expect(form.getByLabel("Parcel 1 weight (kg)")).not.toHaveAttribute("aria-invalid");
  // A warning is described at its field without making the input invalid.
  const email = form.getByLabel("Email");
  await expect(email).toHaveAccessibleDescription(/Neither Recipient\.Email nor Recipient\.Phone/);
  await expect(email).not.toHaveAttribute("aria-invalid");

  // The summary links to the inputs; following a link puts the cursor there.
  await summary.getByRole("link", { name: /^Zip: / }).click();
  await expect(zip).toBeFocused();

  await zip.fill("110 00");
  await form.getByLabel("Email").fill("jana@example.com");
  await form.getByRole("button", { name: "Remove parcel 2" }).click();
  await form.getByRole("button", { name: "Validate order" }).click();
  await expect(page.getByRole("region", { name: "The order passes validation" })).toBeFocused();
  await expect(zip).not.toHaveAttribute("aria-invalid");
});

test("pasted JSON is answered per order, with the field paths of the messages", async ({
  page,
  owner,
  sandboxProfile,
  signIn,
}) => {
  expect(sandboxProfile.id).toBeTruthy();
  await signIn(owner);
  await page.goto("/dashboard/validate");
  await page.getByRole("tab", { name: "Paste JSON" }).click();
  const json = page.getByLabel("Orders (JSON)");
  await json.fill("{ not json");
  await page.getByRole("button", { name: "Validate JSON" }).click();
  await expect(json).toHaveAttribute("aria-invalid", "true");
  await expect(json).toHaveAccessibleDescription(/This is not valid JSON/);

  const recipient = {
    Name: "Max Muster",
    Street: "Hauptstraße 1",
    City: "Berlin",
    Zip: "10115",
    Country: "DE",
    Phone: "+4930123456",
  };
  await json.fill(
    JSON.stringify([
      { ReferenceNumber: "JSON-1", Recipient: recipient, Parcels: [{ Weight: 1 }] },
      { ReferenceNumber: "JSON-2", Recipient: recipient, Parcels: [] },
    ]),
  );
  await page.getByRole("button", { name: "Validate JSON" }).click();
  const results = page.getByRole("region", { name: /2 orders validated/ });
  await expect(results).toBeFocused();
  await expect(results.getByRole("heading", { level: 2 })).toHaveText(
    "2 orders validated: 1 OK, 0 with warnings, 1 with errors",
  );
  const second = results.getByRole("listitem").filter({ hasText: "JSON-2" }).first();
  await expect(second).toContainText("Error");
  await expect(second).toContainText("Parcels");
  await expect(results.getByRole("listitem").filter({ hasText: "JSON-1" }).first()).toContainText("No problems found.");
});
