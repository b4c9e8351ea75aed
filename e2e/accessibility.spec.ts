import AxeBuilder from "@axe-core/playwright";
import type { Page, TestInfo } from "@playwright/test";
import { createOrderViaApi, expect, orderBody, sendRefusedOrder, test, unique } from "./fixtures";

/**
 * WCAG 2.1 AA, checked by axe on every page and dialog at desktop and phone widths, with a full-page
 * screenshot of each kept in the test's output (and attached to the report) to look at.
 */
async function check(page: Page, testInfo: TestInfo, name: string, { fullPage = true } = {}) {
  await page.waitForLoadState("networkidle");
  // Skeletons and toasts that are still animating in are not what a user reads.
  await expect(page.getByRole("status", { name: /^Loading/ })).toHaveCount(0);
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const shot = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: shot, fullPage });
  await testInfo.attach(name, { path: shot, contentType: "image/png" });
  const violations = results.violations.map((v) => ({
    rule: v.id,
    impact: v.impact,
    nodes: v.nodes.map((n) => `${n.target.join(" ")}: ${n.failureSummary ?? ""}`),
  }));
  expect(violations, `${name}: axe violations`).toEqual([]);
}

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });
    // Many pages per test, each checked by axe and photographed whole (the API reference is long).
    test.setTimeout(240_000);
    const at = (name: string) => `${name}-${viewport.width}`;

    test("public pages pass axe", async ({ page }, testInfo) => {
      for (const [path, name] of [
        ["/", "landing"],
        ["/sign-in", "sign-in"],
        ["/docs", "docs"],
        ["/docs/schemas", "docs-schemas"],
        ["/docs/shipping-orders", "docs-shipping-orders"],
      ] as const) {
        const response = await page.goto(path);
        expect(response?.status()).toBe(200);
        // A page of operations is thousands of pixels long: its first screen is what is looked at.
        await check(page, testInfo, at(name), { fullPage: !name.startsWith("docs-") });
      }
      // A page of the reference: a skip link first, and one stop per operation's answers and examples, not one per item.
      await page.keyboard.press("Tab");
      await expect(page.getByRole("link", { name: "Skip to the reference" })).toBeFocused();
      const tabStops = await page.evaluate(
        () =>
          [
            ...document.querySelectorAll<HTMLElement>(
              "a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex='-1'])",
            ),
          ].filter((element) => element.checkVisibility() && element.tabIndex >= 0).length,
      );
      testInfo.annotations.push({ type: "docs tab stops", description: String(tabStops) });
      expect(tabStops).toBeLessThan(400);
      expect((await page.request.get("/favicon.ico")).status()).toBe(200);
      expect((await page.request.get("/icon.svg")).status()).toBe(200);
    });

    test("every dashboard page of a partner passes axe", async ({
      page,
      request,
      owner,
      apiKey,
      sandboxProfile,
      signIn,
    }, testInfo) => {
      const order = await createOrderViaApi(
        request,
        apiKey,
        sandboxProfile.id,
        orderBody({ CodPrice: 120, CodCurrency: "CZK" }),
      );
      await sendRefusedOrder(request, apiKey, sandboxProfile.id, orderBody({ ReferenceNumber: "COURIER-FAIL-AXE" }));
      await signIn(owner);
      const account = `?account=${owner.accountId}`;
      for (const [path, name] of [
        ["/dashboard", "overview"],
        ["/dashboard/orders", "orders"],
        ["/dashboard/orders/refused", "refused"],
        ["/dashboard/orders/new", "new-order"],
        [`/dashboard/orders/${order.id}`, "order"],
        ["/dashboard/validate", "validate"],
        ["/dashboard/validation-results", "validation-results"],
        ["/dashboard/statistics", "statistics"],
        ["/dashboard/api-keys", "api-keys"],
        ["/dashboard/sources", "sources"],
        ["/dashboard/courier-profiles", "courier-profiles"],
        ["/dashboard/audit-log", "audit-log"],
        ["/dashboard/webhooks", "webhooks"],
        ["/dashboard/settings", "settings"],
      ] as const) {
        await page.goto(`${path}${account}`);
        await check(page, testInfo, at(name));
      }
    });

    test("a missing order answers 404 with a page that passes axe", async ({ page, owner, signIn }, testInfo) => {
      await signIn(owner);
      const response = await page.goto(
        `/dashboard/orders/00000000-0000-4000-8000-000000000000?account=${owner.accountId}`,
      );
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { name: "Order not found" })).toBeVisible();
      await check(page, testInfo, at("order-not-found"));
    });

    test("dialogs and menus pass axe", async ({ page, request, owner, apiKey, sandboxProfile, signIn }, testInfo) => {
      const order = await createOrderViaApi(request, apiKey, sandboxProfile.id, orderBody());
      await signIn(owner);
      const account = `?account=${owner.accountId}`;

      await page.goto(`/dashboard/api-keys${account}`);
      await page.getByRole("button", { name: "Create key" }).first().click();
      await check(page, testInfo, at("dialog-create-key"));
      const keyName = `Axe ${unique()}`;
      await page.getByRole("dialog").getByLabel("Name").fill(keyName);
      await page.getByRole("dialog").getByRole("button", { name: "Create key" }).click();
      await expect(page.getByRole("dialog").getByRole("button", { name: "Copy" })).toBeFocused();
      await check(page, testInfo, at("dialog-new-key"));
      await page.getByRole("button", { name: "I have stored the key" }).click();
      await page.getByRole("button", { name: `Revoke API key ${keyName}` }).click();
      await check(page, testInfo, at("dialog-revoke"));
      await page.getByRole("alertdialog").getByRole("button", { name: "Cancel" }).click();

      await page.goto(`/dashboard/courier-profiles${account}`);
      await page.getByRole("button", { name: `Edit ${sandboxProfile.name}` }).click();
      await check(page, testInfo, at("dialog-edit-profile"));
      await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();

      await page.goto(`/dashboard/validation-results${account}`);
      await page
        .getByRole("button", { name: /^View validation of/ })
        .first()
        .click();
      await expect(page.getByRole("dialog").getByRole("region", { name: "Request (JSON)" })).toBeVisible();
      await check(page, testInfo, at("dialog-validation-result"));
      await page.keyboard.press("Escape");

      await page.goto(`/dashboard/webhooks${account}`);
      await page.getByRole("button", { name: "Add endpoint" }).first().click();
      await check(page, testInfo, at("dialog-add-webhook"));
      await page.keyboard.press("Escape");

      await page.goto(`/dashboard/orders/${order.id}${account}`);
      await page.getByRole("button", { name: "Cancel shipment" }).click();
      await check(page, testInfo, at("dialog-delete-order"));
      await page.getByRole("alertdialog").getByRole("button", { name: "Keep shipment" }).click();

      await page.getByRole("button", { name: /account menu$/ }).click();
      await check(page, testInfo, at("menu-user"));
      await page.keyboard.press("Escape");
      if (viewport.width < 1024) {
        await page.getByRole("button", { name: "Open navigation" }).click();
        await check(page, testInfo, at("menu-navigation"));
      }
    });

    test("the staff landing page passes axe", async ({
      page,
      request,
      staff,
      apiKey,
      sandboxProfile,
      signIn,
    }, testInfo) => {
      await sendRefusedOrder(request, apiKey, sandboxProfile.id, orderBody({ ReferenceNumber: "COURIER-FAIL-STAFF" }));
      await signIn(staff);
      await expect(page.getByRole("heading", { level: 1, name: "Platform overview" })).toBeVisible();
      await check(page, testInfo, at("staff-landing"));
      await page.goto("/dashboard/statistics");
      await expect(page.getByRole("heading", { level: 1, name: "Statistics across accounts" })).toBeVisible();
      await check(page, testInfo, at("staff-statistics"));
    });
  });
}
