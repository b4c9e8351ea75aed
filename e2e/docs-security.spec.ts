import { createHash } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";

// Playwright's own `test`: no signed-in user is needed, /docs is public.

/** Content-Security-Policy violations the browser reports on the page. */
function cspViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

const scriptSrc = (policy: string) =>
  policy
    .split(";")
    .map((directive) => directive.trim())
    .find((directive) => directive.startsWith("script-src")) ?? "";

const API_KEY_FIELD = "API key (sent as Authorization: Bearer)";

test("a rendered page runs scripts only with its request's nonce, new on every request (no 'unsafe-inline' scripts)", async ({
  page,
}) => {
  const answer = await page.goto("/sign-in");
  const policy = answer!.headers()["content-security-policy"] ?? "";
  const scripts = scriptSrc(policy);
  expect(scripts).toMatch(/'nonce-[A-Za-z0-9+/=]{16,}'/);
  expect(scripts).not.toContain("'unsafe-inline'");
  const again = await page.request.get("/sign-in");
  expect(again.headers()["content-security-policy"]).not.toBe(policy);
});

/** A page of the reference with operations that take an API key. */
const OPERATIONS_PAGE = "/docs/shipping-orders";

test("the reference is rendered once by the build: every request gets its HTML (one ETag, 304), its inline scripts allowed by hash", async ({
  page,
}) => {
  const violations = cspViolations(page);
  const first = await page.request.get(OPERATIONS_PAGE);
  const html = await first.text();
  const second = await page.request.get(OPERATIONS_PAGE);
  // A page rendered per request differs in its nonce at least: the same bytes are the build's HTML, not a render.
  expect(await second.text()).toBe(html);
  // Next's own word for an answer from the prerendered page.
  expect(first.headers()["x-nextjs-cache"]).toBe("HIT");
  const etag = first.headers()["etag"];
  expect(etag).toBeTruthy();
  expect(second.headers()["etag"]).toBe(etag);
  const revalidated = await page.request.get(OPERATIONS_PAGE, { headers: { "if-none-match": etag! } });
  expect(revalidated.status()).toBe(304);

  const scripts = scriptSrc(first.headers()["content-security-policy"] ?? "");
  expect(scripts).not.toContain("'nonce-");
  expect(scripts).not.toContain("'unsafe-inline'");
  const inline = [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(([, text]) => text!);
  expect(inline.length).toBeGreaterThan(0);
  for (const text of inline.filter(Boolean))
    expect(scripts).toContain(`'sha256-${createHash("sha256").update(text).digest("base64")}'`);

  // The page's scripts ran under the policy: "Try it" (React state) works.
  await page.goto(OPERATIONS_PAGE);
  const tryIt = page.locator("details", { has: page.getByText(API_KEY_FIELD) }).first();
  await tryIt.locator("summary").click();
  await tryIt.getByLabel(API_KEY_FIELD).fill("svc_typed");
  await expect(tryIt.getByLabel(API_KEY_FIELD)).toHaveValue("svc_typed");
  expect(violations).toEqual([]);
});

test("the reference keeps a typed API key in the page's memory only: shared by its operations, never in web storage", async ({
  page,
}) => {
  await page.goto(OPERATIONS_PAGE);
  // Two operations that take an API key: what is typed in one shows in the other.
  const tryIt = page.locator("details", { has: page.getByText(API_KEY_FIELD) });
  await tryIt.nth(0).locator("summary").click();
  await tryIt.nth(1).locator("summary").click();
  const secret = `svc_${crypto.randomUUID()}`;
  await tryIt.nth(0).getByLabel(API_KEY_FIELD).fill(secret);
  await expect(tryIt.nth(1).getByLabel(API_KEY_FIELD)).toHaveValue(secret);

  const stored = await page.evaluate(() => JSON.stringify([{ ...localStorage }, { ...sessionStorage }]));
  expect(stored).not.toContain(secret);
  await page.reload();
  await tryIt.nth(0).locator("summary").click();
  await expect(tryIt.nth(0).getByLabel(API_KEY_FIELD)).toHaveValue("");
});

test("the sign-in page hydrates under the nonce policy (its form signs in through scripts)", async ({ page }) => {
  const violations = cspViolations(page);
  const answer = await page.goto("/sign-in?callbackUrl=%2F%09%2Fevil.example");
  expect(answer!.headers()["content-security-policy"]).toMatch(/script-src 'self' 'nonce-/);
  // The form's submit handler is React's: the wrong password's message appears without a page load.
  await page.getByLabel("Email").fill(`nobody-${crypto.randomUUID()}@test.example`);
  await page.getByLabel("Password").fill("wrong password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("The email or password is wrong.")).toBeVisible();
  expect(violations).toEqual([]);
});

test("a problem's `type` names a prerendered page of this site explaining it; an unknown type is a 404", async ({
  page,
}) => {
  const violations = cspViolations(page);
  const missing = await page.request.get("/api/v2/shipping-orders/00000000-0000-4000-8000-000000000000", {
    headers: { "x-api-key": "svc_unknown" },
  });
  const { type } = (await missing.json()) as { type: string };
  expect(type).toBe("/problems/unauthorized");
  const answer = await page.goto(new URL(type, missing.url()).toString());
  expect(answer!.status()).toBe(200);
  expect(answer!.headers()["x-nextjs-cache"]).toBe("HIT");
  const scripts = scriptSrc(answer!.headers()["content-security-policy"] ?? "");
  expect(scripts).not.toContain("'nonce-");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Unauthorized");
  await expect(page.getByRole("heading", { name: "What to do" })).toBeVisible();
  expect(violations).toEqual([]);
  expect((await page.request.get("/problems/no-such-problem")).status()).toBe(404);
});

test("/docs on a phone: the contents by tag sit behind a disclosure and each link lands on its section", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/docs");
  await expect(page.getByRole("navigation", { name: "Operations", exact: true })).toBeHidden();
  const contents = page.locator("details", { has: page.getByText("Contents by tag", { exact: true }) });
  await contents.locator("summary").click();
  const nav = contents.getByRole("navigation", { name: "Operations by tag" });
  const operationLinks = nav.locator('a[href^="/docs/"][href*="#"]');
  expect(await operationLinks.count()).toBeGreaterThan(10);
  const last = operationLinks.last();
  const target = (await last.getAttribute("href"))!;
  await last.click();
  await expect(page).toHaveURL(new RegExp(`${target}$`));
  await expect(page.locator(`#${target.split("#")[1]}`)).toBeInViewport();
});

test("a link into the earlier one-page reference lands where its section lives now", async ({ page }) => {
  await page.goto("/docs#createShippingOrders");
  await expect(page).toHaveURL(/\/docs\/shipping-orders#createShippingOrders$/);
  await expect(page.locator("#createShippingOrders")).toBeInViewport();
  await page.goto("/docs#schema-ShippingOrder");
  await expect(page).toHaveURL(/\/docs\/schemas#schema-ShippingOrder$/);
  expect((await page.request.get("/docs/no-such-section")).status()).toBe(404);
});
