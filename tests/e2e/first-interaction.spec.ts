import type { Page } from "@playwright/test";
import { DEMO_PASSWORD, expect, test } from "./fixtures";

/**
 * What a page fetches before a person does anything: its own scripts, nothing after the load
 * event. The device key's curve and the forms' schemas load at the first key, pointer or
 * touch, and a login sent before the key is there waits for it.
 */

/** Opens the page and lists the scripts it asked for after its load event, once the network is quiet. */
async function scriptsAfterLoad(page: Page, pathname: string): Promise<string[]> {
  const late: string[] = [];
  let loaded = false;
  page.on("load", () => (loaded = true));
  page.on("request", (request) => {
    if (loaded && request.resourceType() === "script") late.push(new URL(request.url()).pathname);
  });
  await page.goto(pathname, { waitUntil: "networkidle" });
  // An effect after hydration asks in the next moment, if it asks at all.
  await page.waitForTimeout(500);
  await page.waitForLoadState("networkidle");
  return late;
}

const curve = /\/secp256k1-[\w-]+\.js$/;

for (const pathname of ["/login", "/signup", "/login/help"]) {
  test(`${pathname} fetches no script after its load until a person does something`, async ({ page }) => {
    expect(await scriptsAfterLoad(page, pathname)).toEqual([]);
  });
}

test("a NoL step page fetches no script after its load until a person does something, then its schema", async ({
  page,
  signIn,
}) => {
  await signIn("creator");
  expect(await scriptsAfterLoad(page, "/nol/creator/traffic-stop/notice?version=First%20interaction")).toEqual([]);
  const later: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") later.push(new URL(request.url()).pathname);
  });
  await page
    .getByLabel(/claimant/i)
    .first()
    .click();
  await expect.poll(() => later.length).toBeGreaterThan(0);
});

test("the login page loads the device key's curve at the first key press", async ({ page }) => {
  expect(await scriptsAfterLoad(page, "/login")).toEqual([]);
  const curveAsked = page.waitForRequest((request) => curve.test(new URL(request.url()).pathname));
  await page.getByLabel("Username or e-mail address").press("m");
  await curveAsked;
});

test("a login sent before the device key has loaded waits for it and carries it", async ({ page }) => {
  // The curve arrives slowly, so the click that starts loading it also sends the form first.
  await page.route(curve, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 700));
    await route.continue();
  });
  await page.goto("/login", { waitUntil: "networkidle" });
  // Filled as a password manager does: values set, no key pressed.
  await page.evaluate(
    ({ password }) => {
      const set = (name: string, value: string) => {
        const input = document.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(input, value);
      };
      set("login", "member");
      set("password", password);
    },
    { password: DEMO_PASSWORD },
  );
  const posted = page.waitForRequest((request) => request.method() === "POST" && request.url().includes("/login"));
  await page.getByRole("button", { name: "Log in" }).click();
  const body = new URLSearchParams((await posted).postData() ?? "");
  expect(body.get("devicePublicKey")).toMatch(/^0[23][0-9a-f]{64}$/);
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
});
