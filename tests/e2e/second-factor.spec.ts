import type { Browser, BrowserContext, Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { newDataDir, startServer, type RunningServer } from "../helpers/server";
import { expect, submitLogin, test } from "./fixtures";
import { SHIFTED_CLOCK } from "./own-server";

/*
 * Second factors on servers of their own (the shared one's demo admin must keep signing in
 * without one): an admin required to set one up, an authenticator app with codes the test
 * computes, recovery codes used once, step-up before agent mode, and passkeys in Chromium's
 * virtual authenticator. Served on localhost: WebAuthn refuses an IP address as its site.
 */

const STALE_MS = 11 * 60_000;

test.describe.configure({ mode: "serial" });

const base = (server: RunningServer) => `http://localhost:${server.port}`;

async function newPage(browser: Browser, server: RunningServer): Promise<Page> {
  const context = await browser.newContext({ baseURL: base(server) });
  return context.newPage();
}

const PERIOD_MS = 30_000;
let lastStep = -1;

/**
 * The authenticator app's code at the server's time, one step ahead (the server takes one step
 * either side), so never a step the server took already: each is taken once. Waits for the
 * next step when this one was used.
 */
async function totpCode(secret: string, clockOffsetMs = 0): Promise<string> {
  const stepNow = () => Math.floor((Date.now() + clockOffsetMs) / PERIOD_MS);
  while (stepNow() + 1 <= lastStep) await new Promise((resolve) => setTimeout(resolve, 1_000));
  lastStep = stepNow() + 1;
  const totp = new TOTP({ secret: Secret.fromBase32(secret.replace(/\s+/g, "")), digits: 6, period: 30 });
  return totp.generate({ timestamp: lastStep * PERIOD_MS });
}

/** Chromium's virtual authenticator (CDP WebAuthn), a platform one with a resident key and user verification. */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

let dataDir: string;
let port: number;
let secret = "";
let recoveryCodes: string[] = [];
let adminContext: BrowserContext;
/** The server eleven minutes on, which the passkey's test uses too. */
let later: RunningServer | undefined;

test.beforeAll(() => {
  dataDir = newDataDir({});
});

test("an admin is taken to set up a second factor before /admin; an authenticator app, and recovery codes each used once", async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const server = await startServer({ dataDir, env: { MFA_REQUIRED_FOR: "admin" } });
  port = server.port;
  try {
    const admin = await newPage(browser, server);
    adminContext = admin.context();
    await submitLogin(admin, "admin");
    await expect(admin).not.toHaveURL(/\/login/);
    await admin.goto("/admin");
    await expect(admin).toHaveURL(/\/profile\/security\?redirectTo=%2Fadmin/);
    await expect(admin.getByText("Set up a second factor first: this community requires one of you.")).toBeVisible();

    await admin.getByRole("link", { name: "Set up an authenticator app" }).click();
    await expect(admin.getByRole("img", { name: "QR code of your account's secret" })).toBeVisible();
    secret = (await admin.locator("li code").first().textContent()) ?? "";
    expect(secret.replace(/\s+/g, "")).toMatch(/^[A-Z2-7]{32}$/);
    // A wrong first code is refused and turns nothing on.
    await admin.getByLabel("The 6-digit code from the app").fill("000000");
    await admin.getByRole("button", { name: "Confirm and turn on" }).click();
    await expect(admin.getByText("That code is not right. Check the code and try again.")).toBeVisible();
    await admin.getByLabel("The 6-digit code from the app").fill(await totpCode(secret));
    await admin.getByRole("button", { name: "Confirm and turn on" }).click();
    await expect(admin.getByText("Your authenticator app is set up. Now make your recovery codes.")).toBeVisible();

    await admin.getByRole("button", { name: "Make my recovery codes" }).click();
    const codes = admin.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
    await expect(codes).toHaveCount(10);
    recoveryCodes = (await codes.allTextContents()).map((code) => code.trim());
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    await admin.getByRole("link", { name: "I have saved them" }).click();
    await expect(admin).toHaveURL(/\/admin$/);
    await expect(admin.getByRole("heading", { name: "Admin", exact: true })).toBeVisible();

    // Signing in again asks for the factor: a recovery code passes, once.
    const again = await newPage(browser, server);
    await submitLogin(again, "admin");
    await expect(again).toHaveURL(/\/login\/factor$/);
    await again
      .getByLabel("Code from your authenticator app, or a recovery code")
      .fill(recoveryCodes[0]!.toUpperCase());
    await again.getByRole("button", { name: "Confirm" }).click();
    await expect(again).not.toHaveURL(/\/login/);
    await again.goto("/admin");
    await expect(again.getByRole("heading", { name: "Admin", exact: true })).toBeVisible();
    await again.context().close();

    const third = await newPage(browser, server);
    await submitLogin(third, "admin");
    await expect(third).toHaveURL(/\/login\/factor$/);
    const code = third.getByLabel("Code from your authenticator app, or a recovery code");
    await code.fill(recoveryCodes[0]!);
    await third.getByRole("button", { name: "Confirm" }).click();
    await expect(third.getByText(/^That code has been used already/)).toBeVisible();
    await expect(third).toHaveURL(/\/login\/factor$/);
    // The authenticator app's code signs in.
    await code.fill(await totpCode(secret));
    await third.getByRole("button", { name: "Confirm" }).click();
    await expect(third).not.toHaveURL(/\/login/);
    await third.context().close();
  } finally {
    await server.stop();
  }
});

test("eleven minutes on, agent mode asks for the factor again inline, and goes on once it passes", async () => {
  test.setTimeout(120_000);
  expect(secret, "the set-up test ran first").not.toBe("");
  later = await startServer({
    dataDir,
    port,
    env: { MFA_REQUIRED_FOR: "admin", NODE_OPTIONS: `--import=${SHIFTED_CLOCK}`, CLOCK_OFFSET_MS: String(STALE_MS) },
  });
  const admin = await adminContext.newPage();
  await admin.goto("/admin");
  await expect(admin.getByRole("heading", { name: "Admin", exact: true })).toBeVisible();
  await admin.getByLabel("Username").fill("member");
  await admin.getByRole("button", { name: "Represent" }).click();
  await expect(admin.getByRole("heading", { name: "Confirm it is you" })).toBeVisible();
  await expect(admin.getByText("Use your second factor to act as a member.")).toBeVisible();
  // A wrong code says so and changes nothing.
  await admin.getByLabel("Code from your authenticator app, or a recovery code").fill("123456");
  await admin.getByRole("button", { name: "Confirm and go on" }).click();
  await expect(admin.getByText("That code is not right. Check the code and try again.")).toBeVisible();
  await admin.goto("/");
  await expect(admin.getByText("WARNING, representing")).toHaveCount(0);

  await admin.goto("/admin");
  await admin.getByLabel("Username").fill("member");
  await admin.getByRole("button", { name: "Represent" }).click();
  await admin.getByLabel("Code from your authenticator app, or a recovery code").fill(await totpCode(secret, STALE_MS));
  await admin.getByRole("button", { name: "Confirm and go on" }).click();
  await expect(admin.getByText("You are now representing member. Every change is recorded.")).toBeVisible();
  await adminContext.close();
});

// On the server of the test before: a passkey keeps no time.
test("a member registers a passkey and signs in with it alone", async ({ browser }) => {
  test.setTimeout(120_000);
  const server = later ?? (later = await startServer({ dataDir, port }));

  const page = await newPage(browser, server);
  await virtualAuthenticator(page);
  await submitLogin(page, "member");
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto("/profile/security");
  await page.getByLabel("Name of the new passkey").fill("Test laptop");
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByText('Your passkey "Test laptop" is added. Now make your recovery codes.')).toBeVisible();
  await page.goto("/profile/security");
  await expect(page.getByText("Test laptop")).toBeVisible();

  await page.goto("/logout");
  await page.getByRole("button", { name: /log out/i }).click();
  // Signed out once the visitor's home shows: a /login asked for before would still be signed in.
  await expect(page).toHaveURL((url) => url.pathname === "/");
  await expect(page.getByRole("link", { name: "Login", exact: true })).toBeVisible();
  await page.goto("/login");
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto("/profile/security");
  await expect(page.getByRole("heading", { name: "Security" })).toBeVisible();
  await expect(page.getByText(/Test laptop · added .* · last used (?!not used yet)/)).toBeVisible();
  await page.context().close();
});

test.afterAll(async () => {
  await later?.stop();
});
