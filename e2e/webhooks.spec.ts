import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { createOrderViaApi, expect, navLink, orderBody, test } from "./fixtures";

type Received = { headers: IncomingHttpHeaders; body: string };

/** A receiver on 127.0.0.1 that answers 200 and records every request. */
async function startReceiver() {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

test("an owner adds an endpoint, gets signed events of a new order, sends a test, and reads deliveries on both pages", async ({
  page,
  request,
  owner,
  apiKey,
  sandboxProfile,
  signIn,
}) => {
  const receiver = await startReceiver();
  try {
    await signIn(owner);
    await navLink(page, "Webhooks").click();
    await page.getByRole("button", { name: "Add endpoint" }).first().click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("URL").fill(receiver.url);
    await dialog.getByLabel("Description").fill("ERP sync");
    await dialog.getByRole("button", { name: "Add endpoint" }).click();
    const secret = (await dialog.getByTestId("webhook-secret").textContent()) ?? "";
    expect(secret).toMatch(/^whsec_/);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: test.info().outputPath("webhooks-secret-1280.png") });
    await dialog.getByRole("button", { name: "I have stored the secret" }).click();

    const card = page.getByRole("listitem", { name: `Endpoint ${receiver.url}` });
    await expect(card).toContainText("Every pair");
    await expect(card).toContainText("Enabled");

    const order = await createOrderViaApi(request, apiKey, sandboxProfile.id, orderBody());
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBeGreaterThan(0);
    const first = receiver.received[0]!;
    const event = new Webhook(secret).verify(first.body, first.headers as Record<string, string>) as {
      type: string;
      data: { shippingOrder: { id: string } };
    };
    expect(event.type).toBe("shipping_order.created");
    expect(event.data.shippingOrder.id).toBe(order.id);

    await card.getByRole("button", { name: "Send test" }).click();
    await expect(page.getByText("Test event queued")).toBeVisible();
    await expect
      .poll(() => receiver.received.some((r) => r.body.includes('"webhook.test"')), { timeout: 30_000 })
      .toBe(true);

    await card.getByRole("button", { name: "Deliveries" }).click();
    await expect(card.getByRole("row").filter({ hasText: "Test" })).toContainText("succeeded", { timeout: 15_000 });
    // The event cell reads "Created" and the event id's last 8 hex digits; the header row says "Created".
    await expect(
      card
        .getByRole("row")
        .filter({ hasText: /^Created[0-9a-f]{8}/ })
        .first(),
    ).toContainText("succeeded");
    await card.getByRole("tab", { name: "failed" }).click();
    await expect(card.getByText("No deliveries failed.")).toBeVisible();
    await card.getByRole("tab", { name: "all" }).click();
    // Times are in the account's zone (a new account's is Europe/Prague), named once per card and per table.
    await expect(card.getByText("Last success (Europe/Prague)")).toBeVisible();
    await expect(card.getByText("Times are in Europe/Prague.")).toBeVisible();
    await page.screenshot({ path: test.info().outputPath("webhooks-1280.png"), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: test.info().outputPath("webhooks-390.png"), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });

    await card.getByRole("switch", { name: `Deliveries to ${receiver.url}` }).click();
    await expect(card).toContainText("Disabled");

    await page.goto(`/dashboard/orders/${order.id}?account=${owner.accountId}`);
    const history = page.getByRole("region", { name: "Events and webhook deliveries" });
    await expect(history).toContainText("Created");
    await expect(history).toContainText("succeeded");
    await expect(history).toContainText(receiver.url);
    await page.screenshot({ path: test.info().outputPath("order-events-1280.png"), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: test.info().outputPath("order-events-390.png"), fullPage: true });
  } finally {
    await receiver.close();
  }
});

test("the add form names a refused URL", async ({ page, owner, signIn }) => {
  await signIn(owner);
  await page.goto("/dashboard/webhooks");
  await page.getByRole("button", { name: "Add endpoint" }).first().click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("URL").fill("ftp://example.com/hooks");
  await dialog.getByRole("button", { name: "Add endpoint" }).click();
  await expect(dialog.getByText("must use https:// or http://")).toBeVisible();
});
