import { defineConfig, devices } from "@playwright/test";
import {
  E2E_BASE_URL,
  E2E_PACKETA_PASSWORD,
  E2E_PACKETA_PORT,
  E2E_PACKETA_URL,
  e2eEnvironment,
} from "./e2e/environment";

e2eEnvironment();

const PROCESS_SPECS = ["shutdown.spec.ts", "client-address.spec.ts", "request-limits.spec.ts"];

export default defineConfig({
  testDir: "./e2e",
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"], ["html", { open: "never" }]],
  // Two browsers, the server and password hashing share a small CI machine; 5 s is too tight for a sign-in.
  expect: { timeout: 10_000 },
  // Several engineers share two cores: a flow that waits on tracking steps can pass 30 s under load.
  timeout: 60_000,
  globalTeardown: "./e2e/global-teardown.ts",
  use: {
    baseURL: E2E_BASE_URL,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  // Two workers: a page spends most of its time waiting on the server, and two cores serve both.
  workers: 2,
  projects: [
    { name: "chromium", testIgnore: PROCESS_SPECS, use: { ...devices["Desktop Chrome"] } },
    // Specs that drive the production server's process and sockets with node:http and open no browser.
    { name: "process", testMatch: PROCESS_SPECS },
  ],
  webServer: [
    {
      // The fake Packeta the app's COURIER_PACKETA_URL points at (e2e/environment.ts); it answers any path.
      command: `npx tsx server/couriers/packeta/fake-server-main.ts --port ${E2E_PACKETA_PORT} --password ${E2E_PACKETA_PASSWORD}`,
      url: E2E_PACKETA_URL,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
    },
    {
      command: "npx tsx e2e/start-server.ts",
      url: `${E2E_BASE_URL}/api/health`,
      // Long enough for a first `next build` when .next has none.
      timeout: 600_000,
      // The database is created per run, so a server left from another run would point at the wrong one.
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
    },
  ],
});
