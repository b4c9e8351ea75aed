import { randomUUID } from "node:crypto";
import { expect, test as base, type APIRequestContext, type Cookie, type Page } from "@playwright/test";
import { closeDb, getDb } from "@/db/client";
import { createUser } from "@/server/services/accounts/create-user";
import { createApiKey } from "@/server/services/api-keys/create-api-key";
import { createCourierProfile } from "@/server/services/courier-profiles/create-courier-profile";
import { E2E_PACKETA_PASSWORD } from "./environment";

export type E2EUser = { email: string; password: string; userId: string; accountId: string };

type WorkerFixtures = {
  /** The owner of an account of this worker's own, so parallel workers never see each other's data. */
  owner: E2EUser;
  /** A member (not an owner) of the owner's account. */
  member: E2EUser;
  /** Platform staff, with an account of their own, who may open every account. */
  staff: E2EUser;
  /** The owner of another account: a second partner, who must not see the first one's data. */
  otherOwner: E2EUser;
  /**
   * A sandbox courier profile of the owner's account whose tracking moves a step every 0.6 s, so a
   * test sees an order delivered within seconds. Orders name it with `?profile=`, whatever the default is.
   */
  sandboxProfile: { id: string; name: string };
  /**
   * A Packeta profile of the owner's account with the password the e2e fake Packeta accepts (see environment.ts).
   * The fake refuses packets whose reference starts with `REFUSE` (a test trigger, at `ReferenceNumber`).
   */
  packetaProfile: { id: string; name: string };
  /** An API key of the owner's account, for tests about what the dashboard shows rather than about keys. */
  apiKey: string;
  /** Session cookies by email: each user signs in through the form once per worker, as sign-in is rate limited. */
  sessions: Map<string, Cookie[]>;
};

type TestFixtures = {
  /**
   * Browser console errors and uncaught exceptions of the test, attached to its report when it fails. A test that
   * passes while its pages logged any (a hydration warning, an uncaught exception, a React error) fails: in
   * development each opens Next's error overlay. `expectedBrowserErrors` names those a test provokes on purpose.
   */
  browserErrors: string[];
  /** Text of page errors this test provokes on purpose (e.g. the browser's CORS refusal of a foreign origin). */
  expectedBrowserErrors: string[];
  /** Signs in (through the sign-in page the first time in this worker) and waits for the dashboard. */
  signIn: (user: E2EUser) => Promise<void>;
};

const PASSWORD = "e2e-password-2026";

export async function newUser(
  options: { accountName: string; staff?: boolean } | { accountId: string; role: "member" },
): Promise<E2EUser> {
  const email = `e2e-${randomUUID()}@test.example`;
  const { userId, accountId } = await createUser(await getDb(), { email, password: PASSWORD, ...options });
  return { email, password: PASSWORD, userId, accountId };
}

export async function signInWith(page: Page, user: E2EUser) {
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** A link of the dashboard's sidebar (pages also link to each other in their content). */
export const navLink = (page: Page, name: string) =>
  page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name });

// Playwright calls the second fixture argument `use`; it is `provide` here so the React hooks lint rule
// does not take it for React's `use`.

export const test = base.extend<TestFixtures, WorkerFixtures>({
  owner: [
    async ({}, provide, workerInfo) => {
      await provide(await newUser({ accountName: `E2E shop ${workerInfo.workerIndex}` }));
      await closeDb();
    },
    { scope: "worker" },
  ],
  member: [
    async ({ owner }, provide) => provide(await newUser({ accountId: owner.accountId, role: "member" })),
    { scope: "worker" },
  ],
  staff: [
    async ({}, provide, workerInfo) =>
      provide(await newUser({ accountName: `Staff ${workerInfo.workerIndex}`, staff: true })),
    { scope: "worker" },
  ],
  expectedBrowserErrors: [[], { option: true }],
  browserErrors: [
    async ({ page, expectedBrowserErrors }, provide, testInfo) => {
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
      });
      page.on("pageerror", (error) => errors.push(error.stack ?? error.message));
      await provide(errors);
      if (testInfo.status !== testInfo.expectedStatus && errors.length > 0) {
        await testInfo.attach("browser-errors", { body: errors.join("\n\n"), contentType: "text/plain" });
      }
      if (testInfo.status === "passed") {
        const unexpected = pageErrors(errors).filter(
          (e) => !expectedBrowserErrors.some((expected) => e.includes(expected)),
        );
        expect(unexpected, "what the pages logged as errors").toEqual([]);
      }
    },
    { auto: true },
  ],
  otherOwner: [
    async ({}, provide, workerInfo) =>
      provide(await newUser({ accountName: `E2E other shop ${workerInfo.workerIndex}` })),
    { scope: "worker" },
  ],
  sandboxProfile: [
    async ({ owner }, provide) => {
      const profile = await createCourierProfile(
        await getDb(),
        { userId: owner.userId, isStaff: false },
        {
          accountId: owner.accountId,
          courier: "sandbox",
          name: "E2E sandbox",
          service: "STANDARD",
          settings: { trackingStepMinutes: 0.01 },
        },
      );
      await provide({ id: profile.id, name: profile.name });
    },
    { scope: "worker" },
  ],
  packetaProfile: [
    async ({ owner }, provide) => {
      const profile = await createCourierProfile(
        await getDb(),
        { userId: owner.userId, isStaff: false },
        {
          accountId: owner.accountId,
          courier: "packeta",
          name: "E2E Packeta",
          service: "PICKUP_POINT",
          settings: { apiPassword: E2E_PACKETA_PASSWORD, sender: "e2e-shop" },
        },
      );
      await provide({ id: profile.id, name: profile.name });
    },
    { scope: "worker" },
  ],
  apiKey: [
    async ({ owner }, provide) => {
      const key = await createApiKey(
        await getDb(),
        { userId: owner.userId, isStaff: false },
        { accountId: owner.accountId, name: "E2E fixture key", rateLimitPerMinute: 100_000 },
      );
      await provide(key.key);
    },
    { scope: "worker" },
  ],
  sessions: [async ({}, provide) => provide(new Map()), { scope: "worker" }],
  signIn: async ({ page, sessions }, provide) => {
    await provide(async (user) => {
      const cookies = sessions.get(user.email);
      if (cookies) {
        await page.context().addCookies(cookies);
        await page.goto("/dashboard");
      } else {
        await page.goto("/sign-in");
        await signInWith(page, user);
      }
      await expect(page).toHaveURL(/\/dashboard$/);
      sessions.set(user.email, await page.context().cookies());
    });
  },
});

/** A valid order for the sandbox courier; override any field. */
export function orderBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ReferenceNumber: `E2E-${randomUUID().slice(0, 8)}`,
    Recipient: {
      Name: "Jana Nováková",
      Street: "Dlouhá 12",
      City: "Praha",
      Zip: "110 00",
      Country: "CZ",
      Email: "jana@example.com",
    },
    Parcels: [{ Weight: 1.5 }],
    ...overrides,
  };
}

export type CreatedOrder = {
  id: string;
  referenceNumber: string;
  shippingNumber: string[];
  referenceSource: string;
  sourceIdentifier: string;
};

/** Creates one order through the partner REST API, as a shop would, and returns it. */
export async function createOrderViaApi(
  request: APIRequestContext,
  key: string,
  profileId: string,
  body: Record<string, unknown>,
): Promise<CreatedOrder> {
  const response = await request.post(`/api/v2/couriers/sandbox/shipping-orders?profile=${profileId}`, {
    headers: { "X-API-Key": key, "content-type": "application/svc.shipping-order+json" },
    data: body,
  });
  expect(response.status(), await response.text()).toBe(200);
  const { items } = (await response.json()) as { items: CreatedOrder[] };
  expect(items).toHaveLength(1);
  return items[0]!;
}

export { expect };

/** An order the sandbox courier refuses (ReferenceNumber `COURIER-FAIL…`), sent with the API: 200 with it in `failed`. */
export async function sendRefusedOrder(
  request: APIRequestContext,
  key: string,
  profileId: string,
  body: Record<string, unknown>,
): Promise<void> {
  const response = await request.post(`/api/v2/couriers/sandbox/shipping-orders?profile=${profileId}`, {
    headers: { "X-API-Key": key, "content-type": "application/svc.shipping-order+json" },
    data: body,
  });
  expect(response.status(), await response.text()).toBe(200);
  const { failed } = (await response.json()) as { failed: { code: string }[] };
  expect(failed).toEqual([expect.objectContaining({ code: "COURIER_REJECTED" })]);
}

/**
 * What the page itself logged as an error (`console.error`, uncaught exceptions): in development each one opens
 * Next's error overlay. The browser's own "Failed to load resource" lines for answers with an error status are
 * left out: the page cannot prevent them and they open no overlay.
 */
export const pageErrors = (errors: string[]): string[] =>
  errors.filter((e) => !e.startsWith("Failed to load resource"));

/** A short random suffix for names and references, so parallel workers and retries never meet each other's data. */
export const unique = (): string => randomUUID().slice(0, 8);
