import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./tests/e2e/chromium";

/**
 * Browser tests run in Debian's Chromium against the built server, which the global setup
 * starts on a free port with a temporary DATA_DIR.
 */
export default defineConfig({
  testDir: "tests/e2e",
  globalSetup: "./tests/e2e/global-setup.ts",
  outputDir: "test-results",
  // Two workers for the two cores: each test signs in with a session of its own, and the
  // tests share nothing but the demo seed, which none of them changes.
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  forbidOnly: !!process.env.CI,
  // The server, the browsers and the workers share two cores: a password hash (scrypt,
  // 128 MB) or a page's first render can take seconds when the machine is busy.
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: ".cache/playwright.json" }]],
  use: {
    trace: { mode: "retain-on-failure", screenshots: false },
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
});
