import { createHmac } from "node:crypto";
import { expect, logIn, test } from "./fixtures";
import { RECHECK_DUE_MS } from "./freshness";
import { HANDOFF_SECRET } from "./learning-site";
import { payWithCard, signUpToMembership } from "./new-member";

test.describe("a new member", () => {
  // The declined test card is answered 402, which the browser logs.
  test.use({ expectedConsoleErrors: [/status of 402/] });

  test("signs up, confirms the e-mail, subscribes with the sandbox card and reaches home", async ({ page, pageAs }) => {
    const { username } = await signUpToMembership(page, await pageAs("admin"));
    await page.getByLabel(/Monthly membership/).check();
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page.getByRole("heading", { name: "Pay by card" })).toBeVisible();
    await expect(page.getByText("Monthly membership: $20.00 for the first month")).toBeVisible();

    await payWithCard(page, "4000 0000 0000 0002");
    await expect(page.getByText("Your card was declined.").first()).toBeVisible();
    await expect(page.getByRole("heading", { name: "Pay by card" })).toBeVisible();

    await payWithCard(page, "4242 4242 4242 4242");
    await expect(page.getByRole("heading", { name: "Thank you" })).toBeVisible();
    await expect(page.getByText("Thank you: your membership is active.")).toBeVisible();
    await page.getByRole("link", { name: "Go to the home page" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: username })).toBeVisible();
  });
});

test("a visitor sent to login from /members comes back to /members as admin", async ({ page }) => {
  await page.goto("/members");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fmembers$/);
  // The login page keeps the target once it has hydrated.
  await expect.poll(() => page.evaluate(() => window.localStorage.getItem("afterLogin"))).toBe("/members");
  await logIn(page, "admin");
  await expect(page).toHaveURL(/\/members$/);
  await expect(page.getByRole("heading", { name: "Members" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Members" })).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.localStorage.getItem("afterLogin"))).toBeNull();
});

test.describe("the login form", () => {
  // The refused password is answered 400, which the browser logs.
  test.use({ expectedConsoleErrors: [/status of 400/] });

  test("refuses a wrong password, then signs the member in and goes home", async ({ page }) => {
    // Each try carries the device's key, the second too, although the refusal reset the form.
    const keys: (string | null)[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && new URL(request.url()).pathname === "/login")
        keys.push(new URLSearchParams(request.postData() ?? "").get("devicePublicKey"));
    });
    await page.goto("/login");
    await page.waitForFunction(() => "__remixRouter" in window);
    await page.getByLabel("Username or e-mail address").fill("member");
    await page.getByLabel("Password").fill("not the password");
    // The password's check takes a while on a busy machine: held here until the button has
    // shown that it is working, and cannot be sent twice meanwhile.
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    await page.route(
      (url) => url.pathname === "/login",
      async (route) => {
        if (route.request().method() !== "POST") return route.fallback();
        await held;
        return route.fallback();
      },
    );
    await page.getByRole("button", { name: "Log in" }).click();
    const working = page.getByRole("button", { name: "Logging in…" });
    await expect(working).toBeDisabled();
    await expect(working).toHaveAttribute("aria-busy", "true");
    answer();
    await expect(page.getByRole("alert")).toContainText("That username or e-mail address and password do not match");
    await expect(page.getByRole("button", { name: "Log in" })).toBeEnabled();
    await expect(page.getByLabel("Username or e-mail address")).toHaveValue("member");
    await logIn(page, "member");
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "member" })).toBeVisible();
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^0[23][0-9a-f]{64}$/);
    expect(keys[1]).toBe(keys[0]);
  });
});

test.describe("a member", () => {
  test.use({ expectedConsoleErrors: [/status of 403/] });

  test("does not see the admin entries and is refused /members", async ({ page, signIn }) => {
    await signIn("member");
    await page.goto("/");
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "member" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Members" })).toHaveCount(0);
    const response = await page.goto("/members");
    expect(response?.status()).toBe(403);
  });
});

test.describe("inside the learning site's frame", () => {
  test("the hand-off signs the member in with state headers, without cookies", async ({ page, baseURL }) => {
    const learningSite = process.env.E2E_LEARNING_SITE!;
    const auth_code = Buffer.from(
      JSON.stringify({ sub: "member", iat: Math.floor(Date.now() / 1000), nonce: `e2e-${Date.now()}` }),
    ).toString("base64url");
    const hash = createHmac("sha256", HANDOFF_SECRET).update(auth_code).digest("hex");
    const appOrigin = baseURL!.replace("localhost", "127.0.0.1");
    const frameUrl = `${appOrigin}/lrm?${new URLSearchParams({ auth_code, hash })}`;

    const handoff = page.waitForRequest((r) => r.url().includes("/api/login/lrm-auth"));
    await page.goto(`${learningSite}/frame?src=${encodeURIComponent(frameUrl)}`);
    const request = await handoff;
    expect(request.headers()["device-key"]).toMatch(/^0[23][0-9a-f]{64}$/);
    expect(request.headers().cookie).toBeUndefined();
    const frame = page.frameLocator("iframe");
    await expect(frame.getByTestId("frame-username")).toHaveText("member");

    // The next API call from the frame is signed with the state the hand-off gave.
    const recheck = page.waitForRequest((r) => r.url().includes("/api/login/recheck"));
    await frame.getByRole("button", { name: "Check again" }).click();
    await expect(frame.getByRole("status").filter({ hasText: "Updated status" })).toBeVisible();
    const signed = await recheck;
    expect(signed.headers()["state-sig"]).toMatch(/^[0-9a-f]{64}$/);
    expect(signed.headers()["state"]).toBeTruthy();
    expect(signed.headers().cookie).toBeUndefined();
    expect((await signed.response())?.status()).toBe(200);
    await expect(frame.getByTestId("frame-username")).toHaveText("member");
  });
});

test("a member who has not finished setup is sent to it", async ({ page, signIn }) => {
  await signIn("newbie");
  await page.goto("/profile");
  await expect(page).toHaveURL(/\/setup/);
  await expect(page.getByRole("heading", { name: "Your details" })).toBeVisible();
});

test("a member still in setup is offered no Respondents link, is told why a respondents' page leads to setup, and is not asked to sign up for an offer", async ({
  page,
  signIn,
}) => {
  await signIn("newbie");
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "newbie" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Respondents" })).toHaveCount(0);

  // A link kept from elsewhere still leads to setup, which says why.
  await page.goto("/respondents");
  await expect(page).toHaveURL(/\/setup/);
  await expect(page.getByText("Finish setup to add respondents: their pages open once it is done.")).toBeVisible();
  await page.reload();
  await expect(page.getByText(/^Finish setup to add respondents/)).toHaveCount(0);

  // The offer's banner and page speak to a member who is signed in: no sign-up, no login.
  await page.goto("/c/welcome");
  const banner = page.getByRole("region", { name: "Your offer" });
  await expect(banner).toHaveText("New members: 10% off your first payment when you finish setting up your account.");
  await expect(banner.getByRole("link", { name: "finish setting up your account" })).toHaveAttribute("href", "/setup");
  await expect(page.getByRole("link", { name: /^(sign up|log ?in)$/i })).toHaveCount(0);
  await expect(page.getByText(/Already a member/)).toHaveCount(0);
});

test("a signed-in page rechecks the login when freshness runs out, and only once", async ({ page, signIn }) => {
  const { loginCheckedAt } = await signIn("member");
  // The browser's clock starts at the sign-in, whenever the session was made.
  await page.clock.install({ time: loginCheckedAt });
  await page.goto("/");
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  const rechecks: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/login/recheck")) rechecks.push(r.url());
  });
  // Due 30 s before the freshness runs out: ten seconds short of it, nothing yet.
  await page.clock.fastForward(RECHECK_DUE_MS - 10_000);
  expect(rechecks).toHaveLength(0);
  const recheck = page.waitForResponse((r) => r.url().includes("/api/login/recheck"));
  const refreshed = page.waitForResponse((r) => r.url().includes("_data=root"));
  await page.clock.fastForward("00:15");
  expect((await recheck).status()).toBe(200);
  await refreshed;
  expect(rechecks).toHaveLength(1);
});

test("a recheck that ends while a form's answer loads keeps the answer's message", async ({ page, signIn }) => {
  test.setTimeout(60_000);
  const { loginCheckedAt } = await signIn("member");
  await page.clock.install({ time: loginCheckedAt });
  let recheckSent!: () => void;
  const sent = new Promise<void>((resolve) => (recheckSent = resolve));
  let releaseRecheck!: () => void;
  const released = new Promise<void>((resolve) => (releaseRecheck = resolve));
  await page.route("**/api/login/recheck", async (route) => {
    recheckSent();
    await released;
    await route.continue();
  });
  // The page the answer leads to has been answered by the server (which gives its message to
  // that one response) but not yet read by the browser when the recheck ends.
  await page.route(
    /\/respondents\?_data=root/,
    async (route) => {
      const response = await route.fetch();
      const rechecked = page.waitForResponse((r) => r.url().includes("/api/login/recheck"));
      releaseRecheck();
      await rechecked;
      await new Promise((resolve) => setTimeout(resolve, 300));
      await route.fulfill({ response }).catch(() => undefined);
    },
    { times: 1 },
  );

  await page.goto("/respondent-reassessment");
  await page.waitForFunction(() => "__remixRouter" in window);
  await page.getByLabel("Respondent", { exact: true }).selectOption({ label: "Judge Example (Capital City, US)" });
  await page.getByLabel("What should be reassessed").fill(`The office moved ${Date.now()}`);
  await page.clock.fastForward(RECHECK_DUE_MS + 5_000);
  await sent;
  const loads: string[] = [];
  page.on("requestfinished", (r) => {
    if (r.url().includes("_data=root")) loads.push(r.url());
  });
  await page.getByRole("button", { name: "Send the request" }).click();
  await expect(page.getByText(/waits for an admin's review/)).toBeVisible();
  // Once the page has loaded, its data is refreshed, and the message stays.
  await expect.poll(() => loads.length).toBe(2);
  await expect(page.getByText(/waits for an admin's review/)).toBeVisible();
});
