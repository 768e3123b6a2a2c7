import type { Browser, Locator, Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { logInAs, startServer, type RunningServer } from "../helpers/server";
import { expectAccessible } from "./axe";
import { CHROMIUM_PATH, PARTITIONED_STORAGE_ARGS } from "./chromium";
import { DEMO_PASSWORD, expect, submitLogin, test } from "./fixtures";

/*
 * The member's own account pages as a member meets them: the security page with a passkey
 * and an authenticator app, the second step of a sign-in, deleting the account and keeping
 * it, and the pages that refuse. The factors and the deletion change their member: those run
 * on a server of their own, served on localhost (WebAuthn refuses an IP address as its site).
 */

const PHONE = { width: 390, height: 844 };
const PERIOD_MS = 30_000;

/** The authenticator app's code one step ahead of now (the server takes one step either side). */
function totpCode(secret: string): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret.replace(/\s+/g, "")), digits: 6, period: 30 });
  return totp.generate({ timestamp: (Math.floor(Date.now() / PERIOD_MS) + 1) * PERIOD_MS });
}

/** Chromium's virtual authenticator (CDP WebAuthn): a platform one that verifies its user. */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

const local = (server: RunningServer) => `http://localhost:${server.port}`;

/** A page of its own context on the server's localhost address, signed in as the demo member when one is named. */
async function localPage(
  browser: Browser,
  server: RunningServer,
  login?: string,
  viewport = { width: 1280, height: 900 },
) {
  const context = await browser.newContext({ baseURL: local(server), viewport });
  if (login) {
    const [name, value] = (await logInAs(local(server), login)).split("=") as [string, string];
    await context.addCookies([{ name, value, url: local(server) }]);
  }
  return context.newPage();
}

/** The gap between two boxes, 0 or less where they touch or overlap. */
async function gapBetween(a: Locator, b: Locator): Promise<number> {
  const [one, two] = [await a.boundingBox(), await b.boundingBox()];
  if (!one || !two) throw new Error("a button is not drawn");
  const across = Math.max(two.x - (one.x + one.width), one.x - (two.x + two.width));
  const down = Math.max(two.y - (one.y + one.height), one.y - (two.y + two.height));
  return Math.max(across, down);
}

test.describe("on a server of their own", () => {
  test.describe.configure({ mode: "serial" });
  let server: RunningServer;
  let starting: Promise<RunningServer> | undefined;

  test.beforeAll(async () => {
    // A server of its own starts in seconds alone, in a minute or more while both cores are busy.
    test.setTimeout(150_000);
    starting = startServer();
    server = await starting;
  });
  test.afterAll(async () => {
    test.setTimeout(90_000);
    // Stopped even when the hook gave up waiting for it: no server outlives the run.
    await (await starting?.catch(() => undefined))?.stop();
  });

  test("a plain member's security page with an authenticator app and a passkey reads as theirs, and a used code says so", async ({
    browser,
  }) => {
    test.setTimeout(150_000);
    const page = await localPage(browser, server, "member");
    await virtualAuthenticator(page);

    await page.goto("/profile/security");
    await page.getByRole("link", { name: "Set up an authenticator app" }).click();
    await expect(page.getByRole("img", { name: "QR code of your account's secret" })).toBeVisible();
    const secret = (await page.locator("li code").first().textContent()) ?? "";
    await page.getByLabel("The 6-digit code from the app").fill(totpCode(secret));
    await page.getByRole("button", { name: "Confirm and turn on" }).click();
    await page.getByRole("button", { name: "Make my recovery codes" }).click();
    const listed = page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
    await expect(listed).toHaveCount(10);
    const codes = (await listed.allTextContents()).map((code) => code.trim());
    await page.getByRole("link", { name: "I have saved them" }).click();
    await expect(page).toHaveURL(/\/profile\/security$/);

    const name = page.getByLabel("Name of the new passkey");
    await name.fill("Test phone");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await expect(page.getByText('Your passkey "Test phone" is added.')).toBeVisible();
    // The field is ready for the next passkey.
    await expect(name).toHaveValue("");
    await expect(page.getByRole("listitem").filter({ hasText: "Test phone" })).toContainText(
      /^Test phone · added [A-Z][a-z]{2} \d{1,2}, \d{4} · not used yet/,
    );
    await expect(page.getByText(/Set up [A-Z][a-z]{2} \d{1,2}, \d{4} · last used /)).toBeVisible();
    // The operator's settings are no member's reading.
    await expect(page.locator("main")).not.toContainText("MFA_REQUIRED_FOR");
    await expect(page.locator("main")).not.toContainText(/asks admins/);
    await expectAccessible(page, "/profile/security");
    await page.context().close();

    // Signing in asks for the factor: one box to remember the device, whichever way is used.
    const second = await localPage(browser, server);
    await submitLogin(second, "member");
    await expect(second).toHaveURL(/\/login\/factor$/);
    await expect(second.getByRole("button", { name: "Use your passkey" })).toBeVisible();
    await expect(second.getByLabel("Remember this device for 30 days")).toHaveCount(1);
    await expect(second.getByText(/recovery codes above/)).toHaveCount(0);
    await expect(second.getByText(/Type one of the recovery codes you saved into the code field/)).toBeVisible();
    await expectAccessible(second, "/login/factor");
    await second.getByLabel("Code from your authenticator app, or a recovery code").fill(codes[0]!);
    await second.getByRole("button", { name: "Confirm" }).click();
    await expect(second).not.toHaveURL(/\/login/);
    await second.context().close();

    const third = await localPage(browser, server);
    await submitLogin(third, "member");
    await expect(third).toHaveURL(/\/login\/factor$/);
    await third.getByLabel("Code from your authenticator app, or a recovery code").fill(codes[0]!);
    await third.getByRole("button", { name: "Confirm" }).click();
    await expect(third.getByText(/^That code has been used already/)).toBeVisible();
    await expect(third.getByText("That code is not right", { exact: false })).toHaveCount(0);
    await expect(third).toHaveURL(/\/login\/factor$/);
    await third.context().close();
  });

  test("a member deletes the account, and on a phone keeps it: the two choices stand apart, and home says it is kept", async ({
    browser,
  }) => {
    test.setTimeout(90_000);
    const page = await localPage(browser, server, "tester", PHONE);
    await page.goto("/profile/delete");
    await expect(page.getByRole("heading", { name: "Delete my account" })).toHaveCount(1);
    await page.getByLabel("Your password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Delete my account" }).click();
    await expect(page.getByText(/Your account is deleted and you are logged out/)).toBeVisible();

    await submitLogin(page, "tester");
    await expect(page.getByRole("heading", { name: "Your account is deleted" })).toBeVisible();
    // "canceled" is not the product's spelling.
    await expect(page.locator("body")).not.toContainText("canceled");
    const leave = page.getByRole("button", { name: "Leave it deleted" });
    const keep = page.getByRole("button", { name: "Keep my account" });
    expect(await gapBetween(leave, keep)).toBeGreaterThanOrEqual(8);
    await expectAccessible(page, "/login/undo-delete");
    await keep.click();
    await expect(page).toHaveURL((url) => url.pathname === "/");
    await expect(page.getByText(/^Your account is kept\. Any membership you had stays cancelled/)).toBeVisible();
    await expect(page.locator("body")).not.toContainText("canceled");
    await page.context().close();
  });
});

test("the only admin is told on the deletion page that they cannot delete, and why, before any password", async ({
  page,
  signIn,
}) => {
  await signIn("admin");
  await page.goto("/profile/delete");
  await expect(page.getByRole("heading", { name: "Delete my account" })).toHaveCount(1);
  await expect(page.getByText("You cannot delete your account yet")).toBeVisible();
  await expect(page.getByText(/You are the only admin of this community/)).toBeVisible();
  await expect(page.getByText(/Make another member an admin first/)).toBeVisible();
  await expect(page.getByLabel("Your password")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Delete my account" })).toHaveCount(0);
  await expectAccessible(page, "/profile/delete (only admin)");
});

test("a member who has not finished setup reaches the deletion page, from setup itself", async ({ page, signIn }) => {
  await signIn("newbie");
  await page.goto("/setup");
  await page.getByRole("link", { name: "Delete my account" }).click();
  await expect(page).toHaveURL(/\/profile\/delete$/);
  await expect(page.getByRole("heading", { name: "Delete my account" })).toHaveCount(1);
  await expect(page.getByLabel("Your password")).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to your setup" })).toBeVisible();
  await expectAccessible(page, "/profile/delete (in setup)");
});

test.describe("a refusal", () => {
  test.use({ expectedConsoleErrors: [/status of 403/] });

  test("says so in words and leads back home", async ({ page, signIn }) => {
    await signIn("member");
    const response = await page.goto("/admin");
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { level: 1, name: "You do not have access to this page" })).toBeVisible();
    await expectAccessible(page, "/admin (refused)");
    await page.getByRole("link", { name: "Back to the home page" }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/");
  });
});

test("the outbox a new member is pointed to says where it leads, and setup says why it came instead", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const username = `outbox${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  await page.goto("/signup");
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("E-mail address").fill(`${username}@example.org`);
  await page.getByLabel("Password").fill("a very private phrase");
  await page.getByLabel(/I accept the/).check();
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
  // The outbox says "sent"; so does the page. A new member is no admin: no link that would turn them back.
  await expect(page.getByText(/its messages are sent to the mail outbox, a page for administrators/)).toBeVisible();
  await expect(page.getByText(/log out and log in as admin to read it/)).toBeVisible();
  await expect(page.getByRole("link", { name: "mail outbox" })).toHaveCount(0);
  await page.goto("/db/mail_outbox");
  await expect(page).toHaveURL(/\/setup/);
  await expect(page.getByText(/The site's records, the mail outbox among them, are for administrators/)).toBeVisible();
});

test("the reminder tick boxes are all one size on a phone", async ({ page, signIn }) => {
  await page.setViewportSize(PHONE);
  await signIn("member");
  await page.goto("/profile/notices");
  const boxes = page.getByRole("group", { name: "E-mail me" }).getByRole("checkbox");
  await expect(boxes).toHaveCount(3);
  const sizes = await boxes.evaluateAll((inputs) =>
    inputs.map((input) => {
      const { width, height } = input.getBoundingClientRect();
      return `${Math.round(width)}×${Math.round(height)}`;
    }),
  );
  expect(new Set(sizes).size, sizes.join(", ")).toBe(1);
});

test("the learning site's frame tells a member in setup to finish it, with the way there", async ({
  playwright,
  baseURL,
  signInFrame,
}) => {
  const browser = await playwright.chromium.launch({ executablePath: CHROMIUM_PATH, args: PARTITIONED_STORAGE_ARGS });
  try {
    const page = await (await browser.newContext({ baseURL })).newPage();
    await signInFrame("newbie", page);
    await page.goto(
      `${process.env.E2E_LEARNING_SITE}/frame?src=${encodeURIComponent(`${baseURL}/embed/subscription`)}`,
    );
    const frame = page.frameLocator("iframe");
    await expect(frame.getByText("Finish your setup first, then your membership shows here.")).toBeVisible();
    const link = frame.getByRole("link", { name: "Go to your setup" });
    await expect(link).toHaveAttribute("href", /^http:\/\/[^/]+\/setup$/);
    await expect(link).toHaveAttribute("target", "_top");
  } finally {
    await browser.close();
  }
});
