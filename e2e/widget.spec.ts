import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { getDb } from "@/db/client";
import { createApiKey } from "@/server/services/api-keys/create-api-key";
import { insertDirectoryPoints } from "@/test/pickup-points";
import { seedDirectories } from "./directory";
import { E2E_BASE_URL } from "./environment";
import { expect, newUser, test } from "./fixtures";

/**
 * The checkout widget as a shop uses it: a shop page on another origin (127.0.0.1 on a port of its own, while the app
 * is localhost) loads /widget/pickup-points.js and picks a point by keyboard alone.
 */

const SHOTS = "/work/shots/h30c";
const POINT_FIELDS = ["courier", "id", "type", "name", "street", "city", "zip", "country"];

let shop: Server;
let shopOrigin: string;
let widgetKey: string;
let foreignKey: string;

const shopPage = (key: string, place: { zip?: string; city?: string } = {}) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Shop checkout</title></head>
<body><main><h1>Checkout</h1>
<button type="button" id="choose">Choose a pickup point</button>
<p id="result" aria-live="polite">No pickup point yet</p></main>
<script src="${E2E_BASE_URL}/widget/pickup-points.js"></script>
<script>
document.getElementById("choose").addEventListener("click", function () {
  SvcPickupPoints.pick({ key: ${JSON.stringify(key)}, couriers: ["packeta", "ppl"], country: "CZ", weightKg: 2, ...${JSON.stringify(place)} }, function (point) {
    window.picked = point;
    window.calls = (window.calls || 0) + 1;
    document.getElementById("result").textContent = point ? point.name : "Closed without a choice";
  });
});
</script></body></html>`;

test.beforeAll(async ({ owner }) => {
  const db = await getDb();
  await seedDirectories();
  shop = createServer((request, response) => {
    const query = new URL(request.url ?? "/", "http://x").searchParams;
    const place = Object.fromEntries(
      ["zip", "city"].flatMap((name) => (query.has(name) ? [[name, query.get(name)]] : [])),
    );
    response
      .writeHead(200, { "content-type": "text/html; charset=utf-8" })
      .end(shopPage(query.get("key") ?? "", place));
  });
  await new Promise<void>((resolve) => shop.listen(0, "127.0.0.1", resolve));
  shopOrigin = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
  const actor = { userId: owner.userId, isStaff: false };
  const create = (name: string, origin: string) =>
    createApiKey(db, actor, { accountId: owner.accountId, name, kind: "publishable", allowedOrigins: [origin] });
  widgetKey = (await create("Checkout widget", shopOrigin)).key;
  foreignKey = (await create("Another shop's widget", "https://other-shop.example")).key;
  mkdirSync(SHOTS, { recursive: true });
});

test.afterAll(async () => {
  await new Promise((resolve) => shop.close(resolve));
});

const widgetFrame = (page: Page) => page.frameLocator('iframe[title="Choose a pickup point"]');

/** The shop page's focused element, as the shop's script sees it (the frame, while the dialog has focus). */
const shopFocus = (page: Page) => page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName);

async function openByKeyboard(page: Page, key: string) {
  await page.goto(`${shopOrigin}/?key=${encodeURIComponent(key)}`);
  await page.keyboard.press("Tab");
  expect(await shopFocus(page)).toBe("choose");
  await page.keyboard.press("Enter");
  const search = widgetFrame(page).getByRole("searchbox", { name: "Town, zip, street or name" });
  await expect(search).toBeFocused();
  return search;
}

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("a shopper picks a point by keyboard alone, and the shop's callback gets it", async ({ page }) => {
      const search = await openByKeyboard(page, widgetKey);
      await page.keyboard.type("Brno");
      const frame = widgetFrame(page);
      const options = frame.getByRole("option");
      await expect(options.first()).toBeVisible();
      await expect(frame.getByText(/points, nearest first/)).toBeVisible();
      await expect(search).toHaveValue("Brno");

      // Tab stays inside the dialog, however often it is pressed, both ways.
      for (let i = 0; i < 8; i++) {
        await page.keyboard.press("Tab");
        expect(await shopFocus(page)).toBe("IFRAME");
      }
      for (let i = 0; i < 8; i++) {
        await page.keyboard.press("Shift+Tab");
        expect(await shopFocus(page)).toBe("IFRAME");
      }

      const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
      expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual(
        [],
      );
      await page.screenshot({ path: `${SHOTS}/widget-${viewport.width}.png` });

      await search.focus();
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("ArrowDown");
      const chosen = await options.nth(1).innerText();
      await page.keyboard.press("Enter");

      await expect(page.locator("dialog")).toHaveCount(0);
      const picked = await page.evaluate(() => (window as unknown as { picked: Record<string, string> }).picked);
      expect(Object.keys(picked).sort()).toEqual([...POINT_FIELDS].sort());
      expect(["packeta", "ppl"]).toContain(picked.courier);
      expect(picked.city).toBe("Brno");
      expect(picked.country).toBe("CZ");
      expect(chosen).toContain(picked.name);
      await expect(page.locator("#result")).toHaveText(picked.name!);
      // The picked point is the directory's own, as the REST door answers it.
      const point = await page.request.get(
        `${E2E_BASE_URL}/api/v2/couriers/${picked.courier}/pickup-points/${picked.id}`,
        { headers: { "x-api-key": widgetKey, origin: shopOrigin } },
      );
      expect(await point.json()).toMatchObject(picked);
      expect(await shopFocus(page)).toBe("choose");
    });

    test("Escape, the close button and the backdrop close it with null, and focus goes back to the opener", async ({
      page,
    }) => {
      await openByKeyboard(page, widgetKey);
      await page.keyboard.press("Escape");
      await expect(page.locator("dialog")).toHaveCount(0);
      await expect(page.locator("#result")).toHaveText("Closed without a choice");
      expect(await page.evaluate(() => (window as unknown as { picked: unknown }).picked)).toBeNull();
      expect(await shopFocus(page)).toBe("choose");

      await page.keyboard.press("Enter");
      await expect(widgetFrame(page).getByRole("searchbox")).toBeFocused();
      await page.keyboard.press("Shift+Tab");
      await expect(widgetFrame(page).getByRole("button", { name: "Close" })).toBeFocused();
      await page.keyboard.press("Enter");
      await expect(page.locator("dialog")).toHaveCount(0);
      expect(await page.evaluate(() => (window as unknown as { calls: number }).calls)).toBe(2);
      expect(await shopFocus(page)).toBe("choose");

      // A click on the backdrop (there is one around the dialog where the screen is wider than the dialog).
      if (viewport.width > 600) {
        await page.keyboard.press("Enter");
        await expect(widgetFrame(page).getByRole("searchbox")).toBeFocused();
        await page.mouse.click(10, viewport.height - 10);
        await expect(page.locator("dialog")).toHaveCount(0);
        expect(await page.evaluate(() => (window as unknown as { calls: number }).calls)).toBe(3);
      }
    });
  });
}

test("a shopper who types before the dialog's scripts have run loses no keystroke", async ({ page }) => {
  // The dialog's scripts are held until the shopper has typed into the field of the server's HTML.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/_next/static/**/*.js", async (route) => {
    await released;
    await route.continue();
  });
  await page.goto(`${shopOrigin}/?key=${encodeURIComponent(widgetKey)}`);
  await page.getByRole("button", { name: "Choose a pickup point" }).click();
  const frame = widgetFrame(page);
  const search = frame.getByRole("searchbox", { name: "Town, zip, street or name" });
  await search.click();
  await page.keyboard.type("Plzeň");
  await expect(search).toHaveValue("Plzeň");
  expect(await frame.getByRole("option").count()).toBe(0);
  release();
  // Hydrated: the search ran for what was typed, and the field still holds all of it.
  await expect(frame.getByRole("option").first()).toContainText("Plzeň");
  await expect(search).toHaveValue("Plzeň");
  await page.keyboard.type(" 3");
  await expect(search).toHaveValue("Plzeň 3");
});

test("the dialog opens on the points nearest to the checkout's zip, or its town", async ({ page }) => {
  for (const [place, town] of [
    ["zip=301%2000", "Plzeň"],
    ["city=Brno", "Brno"],
  ] as const) {
    await page.goto(`${shopOrigin}/?key=${encodeURIComponent(widgetKey)}&${place}`);
    await page.getByRole("button", { name: "Choose a pickup point" }).click();
    const frame = widgetFrame(page);
    await expect(frame.getByText(/points, nearest first/)).toBeVisible();
    const first = frame.getByRole("option").first();
    await expect(first).toContainText(town);
    await expect(frame.getByRole("searchbox", { name: "Town, zip, street or name" })).toHaveValue(
      decodeURIComponent(place.split("=")[1]!),
    );
    await page.keyboard.press("Escape");
    await expect(page.locator("dialog")).toHaveCount(0);
  }
});

test("a point's name from a courier's feed shows in the map's tooltip as text, never as markup", async ({ page }) => {
  const name =
    'Evil shop <a id="injected-link" href="https://phish.example/">Sign in again</a><b id="injected-bold">!</b>';
  await insertDirectoryPoints(await getDb(), [
    {
      id: "990000001",
      courier: "packeta",
      type: "POINT",
      network: "packeta",
      name,
      street: "Tooltipová 1",
      city: "Tooltipov",
      zip: "38501",
      country: "CZ",
      latitude: 49.05,
      longitude: 13.02,
      openingHours: [],
      cod: true,
      cardPayment: false,
      maxWeightKg: 10,
      maxSizeCm: null,
      open: true,
      closedSince: null,
    },
  ]);
  await openByKeyboard(page, widgetKey);
  await page.keyboard.type("Tooltipov");
  const frame = widgetFrame(page);
  await expect(frame.getByRole("option")).toHaveCount(1);
  // The event Leaflet opens a tooltip on, sent to the marker itself: the map is centred on the one point, and the
  // map's notice (no tiles offline) can lie over it, so a pointer hover may land on the notice.
  await frame.getByTestId("pickup-point-map").locator("path.leaflet-interactive").first().dispatchEvent("mouseover");
  await expect(frame.locator(".leaflet-tooltip")).toHaveText(name);
  await expect(frame.locator("#injected-link, #injected-bold")).toHaveCount(0);
});

test.describe("from an origin the key does not list", () => {
  // The browser logs its CORS refusal of the answer: what this test provokes.
  test.use({ expectedBrowserErrors: ["has been blocked by CORS policy", "Failed to fetch"] });
  test("a key used from an origin it does not list is refused", async ({ page }) => {
    await page.goto(`${shopOrigin}/?key=${encodeURIComponent(foreignKey)}`);
    // The browser refuses the answer: it carries no Access-Control-Allow-Origin for this page.
    const outcome = await page.evaluate(
      async ([url, key]) => {
        try {
          const response = await fetch(url!, { headers: { "x-api-key": key! } });
          return `answered ${response.status}`;
        } catch (error) {
          return `refused: ${(error as Error).name}`;
        }
      },
      [`${E2E_BASE_URL}/api/v2/couriers/packeta/pickup-points`, foreignKey],
    );
    expect(outcome).toBe("refused: TypeError");
    const direct = await page.request.get(`${E2E_BASE_URL}/api/v2/couriers/packeta/pickup-points`, {
      headers: { "x-api-key": foreignKey, origin: shopOrigin },
    });
    expect(direct.status()).toBe(403);
    expect((await direct.json()).detail).toBe(
      `The origin ${shopOrigin} is not one of this publishable key's allowedOrigins.`,
    );
    // The dialog opens on no list for it: the page says why and searches nothing.
    await page.getByRole("button", { name: "Choose a pickup point" }).click();
    await expect(
      widgetFrame(page).getByRole("heading", { name: "The pickup-point picker cannot open here" }),
    ).toBeVisible();
    await expect(widgetFrame(page).getByRole("searchbox")).toHaveCount(0);
  });
});

test("the dialog page cannot be framed by a page its origin parameter does not name", async ({ page }) => {
  const response = await page.request.get(
    `${E2E_BASE_URL}/widget/pickup-points?key=${encodeURIComponent(widgetKey)}&origin=${encodeURIComponent(shopOrigin)}`,
  );
  expect(response.headers()["content-security-policy"]).toContain(`frame-ancestors ${shopOrigin}`);
  expect(response.headers()["x-frame-options"]).toBeUndefined();
  const script = await page.request.get(`${E2E_BASE_URL}/widget/pickup-points.js`);
  expect(script.headers()["content-type"]).toContain("text/javascript");
  const other = await page.request.get(`${E2E_BASE_URL}/sign-in`);
  expect(other.headers()["x-frame-options"]).toBe("DENY");
});

test("an owner creates a publishable key in the dashboard, sees its kind and origins, and revokes it", async ({
  page,
  signIn,
}) => {
  const name = `Widget ${test.info().testId}`;
  // An account of its own, so the table holds exactly these keys (the shared one gets other specs' keys): a secret
  // key with a long name and some permissions beside the publishable key made here.
  const owner = await newUser({ accountName: `Key layout ${test.info().testId}` });
  await createApiKey(
    await getDb(),
    { userId: owner.userId, isStaff: false },
    {
      accountId: owner.accountId,
      name: "Warehouse ERP integration for the Brno distribution centre (nightly export)",
      permissions: ["shipping-orders:validate", "configurations:read", "statistics:read"],
    },
  );
  await signIn(owner);
  await page.goto("/dashboard/api-keys");
  await page.getByRole("button", { name: "Create key" }).first().click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByRole("radio", { name: /Publishable/ }).check();
  await dialog.getByLabel("Allowed origins").fill("https://shop.example/checkout");
  await dialog.getByRole("button", { name: "Create key" }).click();
  await expect(
    dialog.getByText('"https://shop.example/checkout" is not an exact origin', { exact: false }),
  ).toBeVisible();
  // A long second origin: the keys table must still fit a 1280 px screen (Revoke on screen), breaking origins at
  // their dots and dashes, one origin per line.
  const longOrigin = "https://www.a-rather-long-eshop-domain-name.example.cz";
  await dialog.getByLabel("Allowed origins").fill(`https://shop.example, ${longOrigin}`);
  await dialog.getByRole("button", { name: "Create key" }).click();
  const key = (await dialog.getByTestId("new-api-key").textContent()) ?? "";
  expect(key).toMatch(/^svc_pk_[0-9A-Za-z]{43}$/);
  // A widget key's one-time dialog says where it goes: the checkout page, not a server's X-API-Key header.
  await expect(dialog.getByText("SvcPickupPoints.pick(…)")).toBeVisible();
  await expect(dialog.getByText("X-API-Key")).toHaveCount(0);
  await dialog.getByRole("button", { name: "I have stored the key" }).click();
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText(`svc_pk_****${key.slice(-4)}`);
  await expect(row).toContainText("Publishable");
  await expect(row.getByRole("list", { name: "Allowed origins" }).getByRole("listitem")).toHaveText([
    "https://shop.example",
    longOrigin,
  ]);
  await expect(row.getByRole("button", { name: `Revoke API key ${name}` })).toBeVisible();

  // The shop moves: its origins change, the key its pages carry stays.
  await row.getByRole("button", { name: `Edit origins of ${name}` }).click();
  const edit = page.getByRole("dialog");
  await expect(edit.getByLabel("Allowed origins")).toHaveValue(`https://shop.example, ${longOrigin}`);
  await edit.getByLabel("Allowed origins").fill("https://new-shop.example https://new-shop.example/cart");
  await edit.getByRole("button", { name: "Save origins" }).click();
  await expect(
    edit.getByText('"https://new-shop.example/cart" is not an exact origin', { exact: false }),
  ).toBeVisible();
  await edit.getByLabel("Allowed origins").fill(`https://new-shop.example, ${longOrigin}`);
  await edit.getByRole("button", { name: "Save origins" }).click();
  await expect(edit).toHaveCount(0);
  await expect(row.getByRole("list", { name: "Allowed origins" }).getByRole("listitem")).toHaveText([
    "https://new-shop.example",
    longOrigin,
  ]);
  await expect(row).toContainText(`svc_pk_****${key.slice(-4)}`);
  // The keys page with a publishable key, to be looked at at both widths.
  await page.screenshot({ path: `${SHOTS}/api-keys-publishable-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByText("https://new-shop.example").first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/api-keys-publishable-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await row.getByRole("button", { name: `Revoke API key ${name}` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Revoke key" }).click();
  await expect(row).toHaveCount(0);
});
