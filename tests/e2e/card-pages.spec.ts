import type { Page, Response } from "@playwright/test";
import { startServer, type RunningServer } from "../helpers/server";
import { expect, test } from "./fixtures";
import { payWithCard } from "./new-member";
import { startStripeStandIn, stripeEnv, type StripeStandIn } from "../helpers/standins";

/*
 * The card pages are the only ones whose content security policy lets Stripe's script, frame
 * and API in (server.ts). A client-side navigation keeps the policy of the document it started
 * in, so the browser must load a new document to enter them and to leave them.
 */

type Load = { kind: "document" | "data"; response: Response };

/** Each answer the page got for `pathname`: a document it loaded, or data Remix fetched for a client-side move. */
function loadsOf(page: Page, pathname: string): Load[] {
  const loads: Load[] = [];
  page.on("response", (response) => {
    const request = response.request();
    if (request.method() !== "GET" || new URL(response.url()).pathname !== pathname) return;
    const document = request.isNavigationRequest() && request.resourceType() === "document";
    loads.push({ kind: document ? "document" : "data", response });
  });
  return loads;
}

/** The sources a CSP header gives one directive. */
function sources(csp: string | null, directive: string): string[] {
  const found = (csp ?? "")
    .split(";")
    .map((part) => part.trim().split(/\s+/))
    .find(([name]) => name === directive);
  return found ? found.slice(1) : [];
}

/** Waits for the page's script, so that what follows is a client-side submission or click. */
async function hydrated(page: Page) {
  await page.waitForFunction(() => "__remixRouter" in window);
}

async function startDonation(page: Page, email: string) {
  await page.getByRole("radio", { name: /^Donation/ }).check();
  await page.getByLabel("Donation amount (USD), for a donation").fill("25");
  await page.getByLabel("Your e-mail, for the receipt").fill(email);
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page.getByRole("heading", { name: "Pay by card" })).toBeVisible();
}

const email = () => `card${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}@example.org`;

test.describe("with Stripe", () => {
  // One server with Stripe for the tests below, in one worker.
  test.describe.configure({ mode: "default" });

  let stripeApi: StripeStandIn;
  let app: RunningServer;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    stripeApi = await startStripeStandIn();
    app = await startServer({ env: stripeEnv(stripeApi) });
  });

  test.afterAll(async () => {
    await app?.stop();
    await stripeApi?.close();
  });

  // Stripe.js is stood in for by an empty script: the form reports that it found no Stripe.
  test.use({ expectedConsoleErrors: [/Stripe\.js not available/] });

  /** Answers Stripe.js with an empty script and counts the browser's requests for it; nothing else goes out. */
  async function standInForStripeJs(page: Page): Promise<{ requested: number }> {
    const stripeJs = { requested: 0 };
    await page.context().route(
      (url) => url.hostname !== "127.0.0.1",
      async (route) => {
        if (new URL(route.request().url()).hostname !== "js.stripe.com") return route.abort();
        stripeJs.requested += 1;
        return route.fulfill({ contentType: "text/javascript", body: "" });
      },
    );
    return stripeJs;
  }

  test("choosing a plan loads the card page as a document whose policy lets Stripe in", async ({ page }) => {
    const stripeJs = await standInForStripeJs(page);
    const home = await page.goto(`${app.url}/`);
    expect(home?.headers()["content-security-policy"]).not.toMatch(/stripe/);
    const subscription = await page.goto(`${app.url}/subscription`);
    expect(subscription?.headers()["content-security-policy"]).not.toMatch(/stripe/);
    await hydrated(page);

    const cardLoads = loadsOf(page, "/subscription/unsafe/card-plus");
    await startDonation(page, email());
    expect(cardLoads.map((load) => load.kind)).toEqual(["document"]);
    const csp = await cardLoads[0]!.response.headerValue("content-security-policy");
    expect(sources(csp, "script-src")).toContain("https://js.stripe.com");
    expect(sources(csp, "frame-src")).toContain("https://js.stripe.com");
    expect(sources(csp, "connect-src")).toContain("https://api.stripe.com");
    // The policy the page runs under let the browser ask for Stripe.js.
    await expect.poll(() => stripeJs.requested).toBeGreaterThan(0);
  });

  test("leaving the card page loads a document whose policy keeps Stripe out again", async ({ page }) => {
    await standInForStripeJs(page);
    await page.goto(`${app.url}/subscription`);
    await hydrated(page);
    await startDonation(page, email());
    await hydrated(page);

    const homeLoads = loadsOf(page, "/");
    await page.getByRole("banner").getByRole("link").first().click();
    await expect(page).toHaveURL(`${app.url}/`);
    await expect.poll(() => homeLoads.map((load) => load.kind)).toEqual(["document"]);
    expect(await homeLoads[0]!.response.headerValue("content-security-policy")).not.toMatch(/stripe/);
  });

  test.describe("with Stripe.js blocked", () => {
    // The blocked script is the browser's own console line.
    test.use({ expectedConsoleErrors: [/ERR_BLOCKED_BY_CLIENT|Failed to load resource/] });

    test("the card page says the card form could not load and what to do, offers the reload, and reports it once", async ({
      page,
    }) => {
      // As an ad blocker or a firewall does: every request for js.stripe.com fails.
      await page.context().route(
        (url) => url.hostname !== "127.0.0.1",
        (route) => route.abort("blockedbyclient"),
      );
      const reports: string[] = [];
      page.on("request", (request) => {
        if (new URL(request.url()).pathname === "/api/errors") reports.push(request.postData() ?? "");
      });
      await page.goto(`${app.url}/subscription`);
      await hydrated(page);
      await startDonation(page, email());

      const refusal = page.getByRole("alert").filter({ hasText: "The card form could not load" });
      await expect(refusal).toContainText(
        "The secure card form could not load: check that nothing blocks js.stripe.com, then reload. Nothing was charged.",
      );
      await expect(page.getByText("Loading the secure card form…")).toHaveCount(0);
      await expect(page.getByText("An error was detected and reported")).toHaveCount(0);
      await expect.poll(() => reports.length).toBe(1);
      expect(reports[0]).toContain("Stripe.js could not load");

      const reloaded = page.waitForEvent("load");
      await page.getByRole("button", { name: "Reload the page" }).click();
      await reloaded;
      await expect(refusal).toBeVisible();
    });
  });
});

test("with the sandbox too, the card pages are entered and left as documents", async ({ page }) => {
  await page.goto("/subscription");
  await hydrated(page);
  const cardLoads = loadsOf(page, "/subscription/unsafe/card-plus");
  await startDonation(page, email());
  expect(cardLoads.map((load) => load.kind)).toEqual(["document"]);

  await hydrated(page);
  await payWithCard(page, "4242 4242 4242 4242");
  await expect(page.getByText("Thank you for your donation")).toBeVisible();
  const signupLoads = loadsOf(page, "/signup");
  await page.getByRole("link", { name: "Continue signup" }).click();
  await expect(page.getByLabel("E-mail address")).toBeVisible();
  expect(signupLoads.map((load) => load.kind)).toEqual(["document"]);
});
