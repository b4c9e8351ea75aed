import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { getDb } from "@/db/client";
import { createApiKey } from "@/server/services/api-keys/create-api-key";
import { createCourierProfile } from "@/server/services/courier-profiles/create-courier-profile";
import { activateSource } from "@/server/services/sources/activate-source";
import { addDays, periodStart, todayIn } from "@/components/statistics/period";
import {
  createOrderViaApi,
  expect,
  navLink,
  newUser,
  orderBody,
  pageErrors,
  sendRefusedOrder,
  test,
  unique,
  type E2EUser,
} from "./fixtures";

/**
 * An account of the test's own (the worker's owner collects other tests' orders), with a key and a sandbox
 * profile whose tracking moves every 0.6 s, so its orders are delivered within seconds.
 */
async function newShop(): Promise<{ owner: E2EUser; name: string; key: string; profileId: string }> {
  const name = `Stats shop ${unique()}`;
  const owner = await newUser({ accountName: name });
  const db = await getDb();
  const actor = { userId: owner.userId, isStaff: false };
  const key = await createApiKey(db, actor, {
    accountId: owner.accountId,
    name: "Statistics e2e",
    rateLimitPerMinute: 100_000,
  });
  const profile = await createCourierProfile(db, actor, {
    accountId: owner.accountId,
    courier: "sandbox",
    name: "Stats sandbox",
    service: "STANDARD",
    settings: { trackingStepMinutes: 0.01 },
  });
  return { owner, name, key: key.key, profileId: profile.id };
}

/** Nothing wider than the screen: a page that scrolls sideways hides what is on its right. */
async function expectNoSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
}

/** A row's cells in order (on a phone the column names are drawn by CSS, not in the text). */
const cells = (page: Page, table: string, rowText: string) =>
  page.getByRole("table", { name: table }).getByRole("row").filter({ hasText: rowText }).getByRole("cell");

test("a partner's statistics: counts per source pair, COD, grouping kept in the URL, the CSV, a phone", async ({
  page,
  request,
  signIn,
  browserErrors,
}, testInfo) => {
  test.setTimeout(180_000);
  const { owner, key, profileId } = await newShop();
  const id = unique();
  const a = { ReferenceSource: "shoptet", SourceIdentifier: `stats-a-${id}` };
  const b = { ReferenceSource: "woo", SourceIdentifier: `stats-b-${id}` };
  const [pairA, pairB] = [`shoptet / stats-a-${id}`, `woo / stats-b-${id}`];
  const db = await getDb();
  for (const pair of [a, b])
    await activateSource(
      db,
      { userId: owner.userId, isStaff: false },
      { accountId: owner.accountId, referenceSource: pair.ReferenceSource, sourceIdentifier: pair.SourceIdentifier },
    );

  // Pair A: two orders (one with 250 CZK on delivery) and one the courier refuses. Pair B: one order with 99.50
  // EUR, and one validation with an error (a parcel over the weight limit).
  await createOrderViaApi(request, key, profileId, orderBody({ ...a, CodPrice: 250, CodCurrency: "CZK" }));
  await createOrderViaApi(request, key, profileId, orderBody(a));
  await sendRefusedOrder(request, key, profileId, orderBody({ ...a, ReferenceNumber: `COURIER-FAIL-${id}` }));
  await createOrderViaApi(request, key, profileId, orderBody({ ...b, CodPrice: 99.5, CodCurrency: "EUR" }));
  const validated = await request.post(`/api/v2/couriers/sandbox/shipping-orders/validate?profile=${profileId}`, {
    headers: { "X-API-Key": key, "content-type": "application/svc.shipping-order+json" },
    data: orderBody({ ...b, Parcels: [{ Weight: 99 }] }),
  });
  expect(validated.status()).toBe(200);

  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(owner);
  await navLink(page, "Statistics").click();
  await expect(page.getByRole("heading", { level: 1, name: "Statistics" })).toBeVisible();
  await expect(page.getByText("Days are counted in Europe/Prague")).toBeVisible();
  await expect(page.getByRole("link", { name: "change it in Settings" })).toHaveAttribute(
    "href",
    `/dashboard/settings?account=${owner.accountId}`,
  );

  // The sandbox delivers the three orders within seconds. Tracking is brought up to date when orders are read
  // (or by the worker's tick, once a minute): the list is read, then the page asks for the latest figures.
  const totals = page.getByRole("region", { name: "Totals" });
  const total = (name: string) => totals.locator("div").filter({ has: page.getByText(name, { exact: true }) });
  await expect(async () => {
    expect((await request.get("/api/v2/shipping-orders", { headers: { "X-API-Key": key } })).status()).toBe(200);
    await page.reload();
    await expect(total("Delivered").locator("dd").first()).toHaveText("3", { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  await expect(total("Created").locator("dd").first()).toHaveText("3");
  await expect(total("Refused").locator("dd").first()).toHaveText("1");
  await expect(total("Validation errors").locator("dd").first()).toHaveText("1");
  await expect(total("Returned").locator("dd").first()).toHaveText("0");

  const rates = "Refusal and validation error rates by source pair";
  // Source pair, created, refused, refusal rate, validations, errors, error rate.
  await expect(cells(page, rates, pairA)).toHaveText([pairA, "2", "1", "33.3%", /\d+/, "0", "0%"]);
  await expect(cells(page, rates, pairB)).toHaveText([pairB, "1", "0", "0%", "2", "1", "50%"]);
  // The pair refused most comes first.
  await expect(page.getByRole("table", { name: rates }).getByRole("row").nth(1)).toContainText(pairA);
  await expect(cells(page, "Cash on delivery by currency", "CZK")).toHaveText(["CZK", "CZK 250.00"]);
  await expect(cells(page, "Cash on delivery by currency", "EUR")).toHaveText(["EUR", "EUR 99.50"]);
  const today = todayIn("Europe/Prague", new Date());
  const created = page.getByRole("table", { name: "Orders created per day by source pair" });
  await expect(created.getByRole("row")).toHaveCount(2);
  await expect(created.getByRole("row").nth(1).getByRole("cell")).toHaveText([/\d{4}$/, "2", "1", "3"]);
  await expect(page.getByRole("img", { name: /^Bar chart of the orders created per day/ })).toBeVisible();
  await expect(page.getByRole("table", { name: "Orders delivered and returned per day" })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("statistics-1280.png"), fullPage: true });

  // Grouping by week goes to the URL (with the account), survives a reload and is reached by keyboard too.
  await page.goto(`/dashboard/statistics?account=${owner.accountId}`);
  const groupBy = page.getByRole("group", { name: "Group by" });
  await groupBy.getByRole("button", { name: "Week" }).click();
  await expect(page).toHaveURL(new RegExp(`\\?account=${owner.accountId}&groupBy=week$`));
  await expect(groupBy.getByRole("button", { name: "Week" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("table", { name: "Orders created per week by source pair" })).toBeVisible();
  await page.reload();
  await expect(groupBy.getByRole("button", { name: "Week" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("heading", { name: "Orders created per week" })).toBeVisible();

  // The CSV is the rows shown, in the REST API's columns: the same file `GET /statistics` answers.
  const from = addDays(today, -29);
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`statistics-${from}-${today}.csv`);
  const csv = readFileSync(await download.path(), "utf8");
  expect(csv.split("\r\n")[0]).toBe(
    "period,referenceSource,sourceIdentifier,courier,courierProfile,created,replaced,cancelled,refused,delivered,returned,validationsOk,validationsWarning,validationsError,codCZK,codEUR",
  );
  const week = periodStart(today, "week");
  const records = parse(csv, { columns: true }) as Record<string, string>[];
  expect(records).toHaveLength(2);
  expect(records).toContainEqual(
    expect.objectContaining({
      period: week,
      ...{ referenceSource: "shoptet", sourceIdentifier: a.SourceIdentifier, courier: "", courierProfile: "" },
      ...{ created: "2", refused: "1", delivered: "2", returned: "0", validationsError: "0" },
      ...{ codCZK: "250.00", codEUR: "" },
    }),
  );
  expect(records).toContainEqual(
    expect.objectContaining({
      period: week,
      ...{ referenceSource: "woo", sourceIdentifier: b.SourceIdentifier, created: "1", refused: "0" },
      ...{ delivered: "1", validationsOk: "1", validationsError: "1", codCZK: "", codEUR: "99.50" },
    }),
  );
  const rest = await request.get(`/api/v2/statistics?from=${from}&to=${today}&groupBy=week`, {
    headers: { "X-API-Key": key, Accept: "text/csv" },
  });
  expect(rest.status()).toBe(200);
  expect(await rest.text()).toBe(csv);

  // Month by keyboard: Tab-reachable buttons that press with Enter.
  await groupBy.getByRole("button", { name: "Month" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/groupBy=month/);
  await expect(page.getByRole("heading", { name: "Orders created per month" })).toBeVisible();

  // A source pair filter narrows every figure, and joins the URL beside the grouping.
  await page.getByRole("combobox", { name: "Source pair" }).click();
  await page.getByRole("option", { name: pairB }).click();
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(new RegExp(`groupBy=month&referenceSource=woo&sourceIdentifier=stats-b-${id}`));
  await expect(cells(page, rates, pairA)).toHaveCount(0);
  await expect(page.getByRole("table", { name: "Cash on delivery by currency" }).getByRole("row")).toHaveCount(2);
  await expect(total("Created").locator("dd").first()).toHaveText("1");

  // Breaking down by courier profile names the profile.
  await page.getByRole("button", { name: "Clear" }).click();
  await expect(page).not.toHaveURL(/referenceSource=/);
  await page.getByRole("combobox", { name: "Break down by" }).click();
  await page.getByRole("option", { name: "Courier profile" }).click();
  await expect(page).toHaveURL(/by=courierProfile/);
  await expect(cells(page, "Refusal and validation error rates by courier profile", "Stats sandbox").nth(1)).toHaveText(
    "3",
  );

  // A custom period with nothing in it says so, and offers to create an order.
  await page.getByRole("group", { name: "Period" }).getByRole("button", { name: "Custom" }).click();
  const custom = page.getByRole("form", { name: "Custom period" });
  await custom.getByLabel("From").fill("2025-01-01");
  await custom.getByLabel("To").fill("2024-12-01");
  await custom.getByRole("button", { name: "Show period" }).click();
  await expect(custom.getByText("Must not be before “From”.")).toBeVisible();
  await custom.getByLabel("To").fill("2025-01-31");
  await custom.getByRole("button", { name: "Show period" }).click();
  await expect(page).toHaveURL(/period=custom&from=2025-01-01&to=2025-01-31/);
  await expect(page.getByRole("heading", { name: "No orders, refusals or validations in this period" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Create an order" })).toHaveAttribute(
    "href",
    `/dashboard/orders/new?account=${owner.accountId}`,
  );

  // On a phone: the same figures, nothing wider than the screen.
  await page.goto(`/dashboard/statistics?account=${owner.accountId}`);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(cells(page, rates, pairA).nth(1)).toHaveText("2");
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: testInfo.outputPath("statistics-390.png"), fullPage: true });
  // No hydration mismatch or chart warning logged as an error on the way.
  expect(pageErrors(browserErrors)).toEqual([]);
});

test("staff compare accounts by their failures and open one's statistics", async ({
  page,
  request,
  staff,
  signIn,
}, testInfo) => {
  const { owner, name, key, profileId } = await newShop();
  for (let i = 0; i < 3; i++)
    await sendRefusedOrder(request, key, profileId, orderBody({ ReferenceNumber: `COURIER-FAIL-STAFF-${unique()}` }));

  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(staff);
  await navLink(page, "Statistics").click();
  await expect(page.getByRole("heading", { level: 1, name: "Statistics across accounts" })).toBeVisible();
  const row = page.getByRole("table", { name: "Statistics by account" }).getByRole("row").filter({ hasText: name });
  await expect(row.getByRole("cell").nth(1)).toHaveText("3 (100%)");
  await page.getByRole("group", { name: "Period" }).getByRole("button", { name: "7 days" }).click();
  await expect(page).toHaveURL(/\/dashboard\/statistics\?period=7$/);
  await expect(row).toBeVisible();
  // Each account's own last 7 days, in its time zone (its today may be UTC's tomorrow).
  await expect(page.getByText("The last 7 days of each account")).toBeVisible();
  await expect(row.getByRole("cell").first()).toContainText(
    /Europe\/Prague · \d{1,2}( \w{3})?( \d{4})? – \d{1,2} \w{3} \d{4}/,
  );
  await page.screenshot({ path: testInfo.outputPath("staff-statistics-1280.png"), fullPage: true });
  await row.getByRole("link", { name }).click();
  await expect(page).toHaveURL(`/dashboard/statistics?account=${owner.accountId}`);
  await expect(page.getByRole("heading", { level: 1, name: "Statistics" })).toBeVisible();
  await expect(cells(page, "Refusal and validation error rates by source pair", "api / default")).toHaveText([
    "api / default",
    "0",
    "3",
    "100%",
    /\d+/,
    "0",
    "0%",
  ]);
});

test("settings: an owner changes the time zone and the statistics are recounted; a member only reads them", async ({
  page,
  signIn,
  browserErrors,
}, testInfo) => {
  test.setTimeout(120_000);
  const owner = await newUser({ accountName: `Settings shop ${unique()}` });
  const member = await newUser({ accountId: owner.accountId, role: "member" });

  await signIn(owner);
  await navLink(page, "Settings").click();
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  const zone = page.getByLabel("Time zone");
  await expect(zone).toHaveValue("Europe/Prague");

  // A name the service refuses is said under its input.
  const name = page.getByLabel("Account name");
  await name.fill("   ");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Must not be empty.")).toBeVisible();
  await expect(name).toHaveAttribute("aria-invalid", "true");

  const renamed = `Renamed shop ${unique()}`;
  await name.fill(renamed);
  await zone.selectOption("America/New_York");
  // The recount may end within the 2 s between the page's checks: the progress bar is caught as it appears.
  const progress = page.evaluate(
    () =>
      new Promise<{ label: string | null; indeterminate: boolean; text: string }>((resolve) => {
        const look = () => {
          const bar = document.querySelector('[role="progressbar"]');
          if (bar)
            resolve({
              label: bar.getAttribute("aria-label"),
              indeterminate: !bar.hasAttribute("aria-valuenow"),
              text: bar.parentElement?.textContent ?? "",
            });
          return bar !== null;
        };
        if (look()) return;
        const observer = new MutationObserver(() => {
          if (look()) observer.disconnect();
        });
        observer.observe(document.body, { childList: true, subtree: true });
      }),
  );
  await page.getByRole("button", { name: "Save" }).click();
  expect(await progress).toEqual({
    label: "Recounting statistics",
    indeterminate: true,
    text: expect.stringContaining("Recounting statistics for the new time zone…"),
  });
  await expect(page.getByText("Settings saved: statistics are being recounted in America/New_York")).toBeVisible();
  // The web process runs the worker: the recount ends, and the page (asking every 2 s) says so.
  await expect(page.getByText("Statistics recounted")).toBeVisible({ timeout: 60_000 });
  await page.screenshot({ path: testInfo.outputPath("settings-1280.png"), fullPage: true });
  await expect(page.getByRole("progressbar")).toHaveCount(0);

  await page.reload();
  await expect(zone).toHaveValue("America/New_York");
  await expect(name).toHaveValue(renamed);
  await navLink(page, "Statistics").click();
  await expect(page.getByText("Days are counted in America/New_York")).toBeVisible();

  await signIn(member);
  await navLink(page, "Settings").click();
  await expect(page.getByText("only an owner can change them")).toBeVisible();
  await expect(page.getByRole("definition").nth(1)).toContainText("America/New_York");
  await expect(page.getByRole("definition").first()).toHaveText(renamed);
  await expect(page.getByRole("button", { name: "Save" })).toHaveCount(0);
  await expect(page.getByLabel("Time zone")).toHaveCount(0);
  expect(pageErrors(browserErrors)).toEqual([]);
});
