import { readFileSync } from "node:fs";
import { PDFDocument } from "pdf-lib";
import { createOrderViaApi, expect, orderBody, test, type CreatedOrder } from "./fixtures";
import type { Page } from "@playwright/test";

const MM = 72 / 25.4;

/** Opens the order, picks the label format and downloads it; answers the file and the name the browser saved it as. */
async function downloadLabel(page: Page, order: CreatedOrder, accountId: string, format: string) {
  await page.goto(`/dashboard/orders/${order.id}?account=${accountId}`);
  await page.getByRole("combobox", { name: "Label format" }).click();
  await page.getByRole("option", { name: format }).click();
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download label" }).click();
  const file = await download;
  return { bytes: readFileSync(await file.path()), name: file.suggestedFilename() };
}

test.describe("label formats", () => {
  let order: CreatedOrder;
  test.beforeEach(async ({ request, apiKey, sandboxProfile, owner, signIn }) => {
    order = await createOrderViaApi(
      request,
      apiKey,
      sandboxProfile.id,
      orderBody({ Parcels: [{ Weight: 1 }, { Weight: 2 }, { Weight: 3 }] }),
    );
    await signIn(owner);
  });

  test("PDF A6: a page per parcel, named after the reference", async ({ page, owner }) => {
    const { bytes, name } = await downloadLabel(page, order, owner.accountId, "PDF, A6 (one label per page)");
    expect(name).toBe(`label-${order.referenceNumber}.pdf`);
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getPageCount()).toBe(3);
    expect(pdf.getPage(0).getWidth()).toBeCloseTo(105 * MM, 0);
    expect(pdf.getPage(0).getHeight()).toBeCloseTo(148 * MM, 0);
  });

  test("PDF A4: four labels to a sheet", async ({ page, owner }) => {
    const { bytes, name } = await downloadLabel(page, order, owner.accountId, "PDF, A4 (four labels per sheet)");
    expect(name).toBe(`label-${order.referenceNumber}.pdf`);
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getPageCount()).toBe(1);
    expect(pdf.getPage(0).getWidth()).toBeCloseTo(210 * MM, 0);
    expect(pdf.getPage(0).getHeight()).toBeCloseTo(297 * MM, 0);
  });

  test("ZPL: a label per parcel with a Code 128 barcode of its shipping number, and no print button", async ({
    page,
    owner,
  }) => {
    const { bytes, name } = await downloadLabel(page, order, owner.accountId, "ZPL for thermal printers (203 dpi)");
    expect(name).toBe(`label-${order.referenceNumber}.zpl`);
    const zpl = bytes.toString("utf8");
    const labels = zpl.split("^XZ").filter((l) => l.includes("^XA"));
    expect(labels).toHaveLength(3);
    labels.forEach((label, i) => {
      const barcode = /\^BCN,\d+,Y,N,N,A\^FH\\\^FD([^^]+)\^FS/.exec(label);
      expect(barcode?.[1]).toBe(order.shippingNumber[i]);
      expect(label).toContain(`Ref. ${order.referenceNumber}`);
      expect(label).toContain("^PW812");
    });
    await expect(page.getByRole("button", { name: "Print label" })).toHaveCount(0);
  });
});

test("the REST label route answers each format, and a 400 problem naming format for an unknown one", async ({
  request,
  apiKey,
  sandboxProfile,
}) => {
  const order = await createOrderViaApi(request, apiKey, sandboxProfile.id, orderBody());
  const get = (format: string) =>
    request.get(`/api/v2/shipping-orders/${order.id}/label?format=${format}`, { headers: { "X-API-Key": apiKey } });
  expect((await get("pdf-a6")).headers()["content-type"]).toBe("application/pdf");
  expect((await get("pdf-a4")).headers()["content-type"]).toBe("application/pdf");
  const zpl = await get("zpl");
  expect(zpl.headers()["content-type"]).toBe("application/x-zpl");
  expect(zpl.headers()["content-disposition"]).toBe(`attachment; filename="label-${order.referenceNumber}.zpl"`);
  const bad = await get("png");
  expect(bad.status()).toBe(400);
  expect(bad.headers()["content-type"]).toBe("application/problem+json");
  expect(((await bad.json()) as { errors: { field: string }[] }).errors[0]!.field).toBe("format");
});

test("the orders list finds orders by recipient, shows their COD, and prints the chosen orders' labels in one document", async ({
  page,
  request,
  apiKey,
  sandboxProfile,
  owner,
  signIn,
}) => {
  const tag = crypto.randomUUID().slice(0, 6);
  const recipient = (name: string) => ({ ...(orderBody().Recipient as object), Name: name });
  const novak = await createOrderViaApi(
    request,
    apiKey,
    sandboxProfile.id,
    orderBody({
      Recipient: recipient(`Petr Novák ${tag}`),
      CodPrice: 499,
      CodCurrency: "CZK",
      Parcels: [{ Weight: 1 }, { Weight: 2 }],
    }),
  );
  const svoboda = await createOrderViaApi(
    request,
    apiKey,
    sandboxProfile.id,
    orderBody({ Recipient: recipient(`Eva Svobodová ${tag}`) }),
  );
  await signIn(owner);
  await page.goto(`/dashboard/orders?account=${owner.accountId}`);

  // Case and accents ignored, kept in the URL.
  await page.getByLabel("Recipient name").fill(`novak ${tag}`);
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/recipient=novak/);
  const rows = page.getByRole("table", { name: "Shipping orders" }).getByRole("row");
  await expect(rows.filter({ hasText: novak.referenceNumber })).toHaveCount(1);
  await expect(rows.filter({ hasText: svoboda.referenceNumber })).toHaveCount(0);
  await expect(rows.filter({ hasText: novak.referenceNumber })).toContainText("499.00 CZK");

  await page.getByLabel("Recipient name").fill(tag);
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(rows.filter({ hasText: svoboda.referenceNumber })).toHaveCount(1);
  await expect(rows.filter({ hasText: svoboda.referenceNumber })).toContainText("—");
  const print = page.getByRole("button", { name: /Print labels \(0\)/ });
  await expect(print).toHaveAttribute("aria-disabled", "true");
  await page.getByRole("checkbox", { name: `Select order ${novak.referenceNumber}` }).check();
  await page.getByRole("checkbox", { name: `Select order ${svoboda.referenceNumber}` }).check();
  await page.getByRole("combobox", { name: "Label format" }).click();
  await page.getByRole("option", { name: "ZPL for thermal printers (203 dpi)" }).click();
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download labels (2)" }).click();
  const zpl = readFileSync(await (await download).path()).toString("utf8");
  // Every parcel's label, in the list's order (newest first).
  const numbers = [...zpl.matchAll(/\^FD([A-Z0-9]+)\^FS/g)].map((m) => m[1]);
  for (const n of [...novak.shippingNumber, ...svoboda.shippingNumber]) expect(numbers).toContain(n);
  expect(zpl.match(/\^XA/g)).toHaveLength(3);
});
