import { mkdirSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { pickupPoints, refusedAttempts, validationResults } from "@/db/schema";
import { syntheticPoints } from "@/server/pickup-points/synthetic";
import { seedDirectories } from "./directory";
import { expect, pageErrors, test, unique } from "./fixtures";

/** Where the screenshots of the picker and the one-click fix are kept to be looked at. */
const SHOTS = process.env.E2E_SHOTS_DIR ?? "/work/shots/h30d";

/** The Packeta directory the picker searches and validation checks: the synthetic one, synced (e2e/directory.ts). */
test.beforeAll(seedDirectories);

async function pointNamed(id: string) {
  const [row] = await (
    await getDb()
  )
    .select({ name: pickupPoints.name, city: pickupPoints.city })
    .from(pickupPoints)
    .where(and(eq(pickupPoints.courier, "packeta"), eq(pickupPoints.id, id)));
  return row;
}

/** The new-order form for Packeta (the fixture's profile, whose default service delivers to a pickup point). */
async function packetaOrderForm(page: Page, city: string) {
  await page.goto("/dashboard/orders/new");
  await page.getByRole("combobox", { name: "Courier", exact: true }).click();
  await page.getByRole("option", { name: "Packeta" }).click();
  await page.getByLabel("City").fill(city);
  await page.getByLabel("Country").fill("CZ");
  await page.getByLabel("Parcel 1 weight (kg)").fill("2");
}

const optionName = async (page: Page, index: number) =>
  (await page.getByRole("option").nth(index).locator("span").first().textContent())!;

async function axeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations.map((v) => ({ rule: v.id, nodes: v.nodes.map((n) => n.target.join(" ")) }));
}

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });
    // Three dialogs, axe and a directory seeded on a cold server share two cores with other suites.
    test.setTimeout(120_000);

    test("the order form's pickup point is chosen in the picker by keyboard and by mouse, axe clean", async ({
      page,
      owner,
      packetaProfile,
      signIn,
      browserErrors,
    }) => {
      expect(packetaProfile.id).toBeTruthy();
      await signIn(owner);
      await packetaOrderForm(page, "Plzeň");

      // Keyboard: the dialog opens on the recipient's town, the nearest points first; arrows move, Enter chooses.
      await page.getByRole("button", { name: "Choose…" }).click();
      const dialog = page.getByRole("dialog", { name: "Choose a pickup point" });
      await expect(dialog.getByRole("searchbox", { name: "Town, zip, street or name" })).toHaveValue("Plzeň");
      await expect(dialog.getByText(/\d+ points, nearest first/)).toBeVisible();
      await expect(dialog.getByRole("option").first()).toContainText("Plzeň");
      await expect(dialog.getByRole("option").first()).toContainText(/\d+ m|\d+\.\d km/);
      expect(await axeViolations(page)).toEqual([]);
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: `${SHOTS}/picker-${viewport.width}.png` });

      const second = await optionName(page, 1);
      await dialog.getByRole("searchbox").focus();
      await page.keyboard.press("ArrowDown");
      await expect(dialog.getByRole("listbox", { name: "Pickup points" })).toBeFocused();
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("Enter");
      await expect(dialog).toBeHidden();
      const field = page.getByRole("textbox", { name: "Pickup point (optional)" });
      await expect(field).toHaveValue(/^\d+$/);
      expect((await pointNamed(await field.inputValue()))?.name).toBe(second);
      await expect(page.getByText(`Chosen: ${second}`)).toBeVisible();

      // Mouse: another town typed, a point clicked; the chosen one is marked when the dialog opens again.
      await page.getByRole("button", { name: "Choose…" }).click();
      await dialog.getByRole("searchbox").fill("brno");
      await expect(dialog.getByRole("option").first()).toContainText("Brno");
      const third = await optionName(page, 2);
      const thirdAddress = (await dialog.getByRole("option").nth(2).locator("div").nth(1).textContent())!;
      await dialog.getByRole("option").nth(2).click();
      await expect(dialog).toBeHidden();
      const chosen = await pointNamed(await field.inputValue());
      expect(chosen).toMatchObject({ name: third, city: "Brno" });

      await page.getByRole("button", { name: "Choose…" }).click();
      await dialog.getByRole("searchbox").fill(thirdAddress);
      await expect(dialog.getByRole("option", { selected: true })).toContainText(third);
      await page.keyboard.press("Escape");
      await expect(field).toHaveValue(/^\d+$/);
      expect(pageErrors(browserErrors)).toEqual([]);
    });

    test("a validation error's suggestion puts its point into the field with one click", async ({
      page,
      owner,
      packetaProfile,
      signIn,
    }) => {
      // The rules emit suggestions only for a courier whose directory was synced: seedDirectories marks Packeta's.
      expect(packetaProfile.id).toBeTruthy();
      await signIn(owner);
      await packetaOrderForm(page, "Brno");
      await page.getByLabel("Reference number").fill(`PP-${unique()}`);
      await page.getByLabel("Name", { exact: true }).fill("Jana Nováková");
      await page.getByLabel("Street").fill("Husova 12");
      await page.getByLabel("Zip").fill("602 00");
      await page.getByLabel("Amount (optional)").fill("100");
      await page.getByRole("combobox", { name: "Currency" }).click();
      await page.getByRole("option", { name: "CZK" }).click();
      const field = page.getByRole("textbox", { name: "Pickup point (optional)" });
      await field.fill("999999999");
      await page.getByRole("button", { name: "Validate order" }).click();
      const fix = page.getByRole("button", { name: /^Use .* as pickup point$/ }).first();
      await expect(fix).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/one-click-fix-form-${viewport.width}.png` });
      await fix.click();
      await expect(field).not.toHaveValue("999999999");
      await expect(field).toHaveValue(/^\d+$/);
      expect(await pointNamed(await field.inputValue())).toBeTruthy();
      await expect(field).toBeFocused();
    });

    test("a refused attempt's suggestion opens the order form with the suggested point in its field", async ({
      page,
      owner,
      packetaProfile,
      signIn,
    }) => {
      // Seeded as the pickup-point rules record it: the validation of a create, with suggestions, and the attempt.
      const db = await getDb();
      const reference = `PP-FIX-${unique()}`;
      const [near] = [...syntheticPoints({ courier: "packeta", count: 3000 })].filter(
        (p) => p.open && p.city === "Brno",
      );
      const order = {
        ReferenceNumber: reference,
        PickupPoint: "999999",
        InsurancePrice: 500,
        Recipient: { Name: "Jana Nováková", Street: "Dlouhá 12", City: "Brno", Zip: "602 00", Country: "CZ" },
        Parcels: [{ Weight: 1 }],
      };
      const closed = {
        code: "PICKUP_POINT_CLOSED",
        severity: "WARNING" as const,
        field: "PickupPoint",
        message: "PickupPoint 999999 no longer accepts parcels",
        suggestions: [{ value: near!.id, text: `${near!.name}, ${near!.street}, Brno (0.4 km)` }],
      };
      const [result] = await db
        .insert(validationResults)
        .values({
          accountId: owner.accountId,
          userId: owner.userId,
          operation: "create",
          courier: "packeta",
          courierProfileId: packetaProfile.id,
          referenceNumber: reference,
          referenceSource: "api",
          sourceIdentifier: "default",
          status: "WARNING",
          messages: [closed],
          requestBody: order,
        })
        .returning({ id: validationResults.id });
      await db.insert(refusedAttempts).values({
        accountId: owner.accountId,
        userId: owner.userId,
        validationResultId: result!.id,
        courier: "packeta",
        courierProfileId: packetaProfile.id,
        referenceNumber: reference,
        referenceSource: "api",
        sourceIdentifier: "default",
        code: "COURIER_REJECTED",
        message: "Pickup point 999999 is closed.",
        field: "PickupPoint",
        request: order,
      });

      await signIn(owner);
      await page.goto("/dashboard/orders/refused");
      const row = page.getByRole("row").filter({ hasText: reference });
      const fix = row.getByRole("link", {
        name: `Fix ${reference}: use ${near!.name}, ${near!.street}, Brno (0.4 km) as pickup point`,
      });
      await expect(fix).toBeVisible();
      await row.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/one-click-fix-refused-${viewport.width}.png` });
      await fix.click();
      await expect(page.getByRole("heading", { level: 1, name: "Fix and send again" })).toBeVisible();
      await expect(page.getByRole("textbox", { name: "Pickup point (optional)" })).toHaveValue(near!.id);
      await expect(page.getByLabel("Reference number")).toHaveValue(reference);
    });
  });
}
