import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/** What the members' apps read: GET /api/config/causes (spec §7). */
async function catalogue(page: Page) {
  const response = await page.request.get("/api/config/causes");
  expect(response.status()).toBe(200);
  return (await response.json()) as { mnInviteLink: string | null; mightyLinks: Record<string, string> };
}

const NOT_HTTPS = "Enter a full web address starting with https://";

// One after the other: both read the community's links, and the first changes them.
test.describe.configure({ mode: "serial" });

test.describe("without JavaScript", () => {
  // Each refused form is answered 400, which the browser logs.
  test.use({ javaScriptEnabled: false, expectedConsoleErrors: [/status of 400/] });

  test("an admin sets the community links from /admin; bad addresses are refused beside their fields", async ({
    page,
    signIn,
  }) => {
    test.setTimeout(60_000);
    await signIn("admin");
    await page.goto("/admin");
    await page.getByRole("link", { name: /^Community settings/ }).click();
    await expect(page).toHaveURL(/\/admin\/settings$/);
    await expect(page.getByRole("heading", { level: 1, name: "Community settings" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: "Community links" })).toBeVisible();
    const before = await catalogue(page);
    const invite = page.getByLabel("Invite link");
    const traffic = page.getByLabel("Traffic Stop (TS)");
    const save = page.getByRole("button", { name: "Save the links" });
    await expect(invite).toHaveValue(before.mnInviteLink ?? "");

    for (const [field, bad, message] of [
      [invite, "javascript:alert(document.cookie)", NOT_HTTPS],
      [traffic, "not a link", NOT_HTTPS],
      [invite, `https://chat.example.org/${"x".repeat(500)}`, "Use at most 500 characters"],
    ] as const) {
      await field.fill(bad);
      await save.click();
      await expect(field).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByText(message)).toBeVisible();
      // What was typed stays in the field, and nothing is saved.
      await expect(field).toHaveValue(bad);
      expect(await catalogue(page)).toEqual(before);
      await page.goto("/admin/settings");
    }

    const stamp = Date.now();
    await invite.fill(`https://chat.example.org/invite/${stamp}`);
    await traffic.fill(`https://chat.example.org/spaces/traffic-${stamp}`);
    await save.click();
    await expect(page.getByText("The community links are saved.")).toBeVisible();
    await expect(invite).toHaveValue(`https://chat.example.org/invite/${stamp}`);
    expect(await catalogue(page)).toEqual({
      ...before,
      mnInviteLink: `https://chat.example.org/invite/${stamp}`,
      mightyLinks: { ...before.mightyLinks, TS: `https://chat.example.org/spaces/traffic-${stamp}` },
    });
  });
});

test("with JavaScript, a bad address is refused beside its field and nothing is saved", async ({ page, signIn }) => {
  await signIn("admin");
  await page.goto("/admin/settings");
  const before = await catalogue(page);
  const traffic = page.getByLabel("Traffic Stop (TS)");
  await traffic.fill("javascript:alert(1)");
  // The form's check loads at the first interaction (a key pressed once the page runs: a
  // fill before the page has hydrated is not seen); once it has, leaving the field checks it.
  await expect(async () => {
    await traffic.press("End");
    await traffic.blur();
    await expect(traffic).toHaveAttribute("aria-invalid", "true", { timeout: 500 });
  }).toPass();
  await page.getByRole("button", { name: "Save the links" }).click();
  await expect(traffic).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText(NOT_HTTPS)).toBeVisible();
  expect(await catalogue(page)).toEqual(before);
});

test.describe("the mailing settings, without JavaScript", () => {
  // The refused form's answer is a 400, which the browser logs.
  test.use({ javaScriptEnabled: false, expectedConsoleErrors: [/status of 400 \(Bad Request\)/] });

  test("an admin sets the price and the return address; a bad price or half an address is refused beside its field", async ({
    page,
    signIn,
  }) => {
    await signIn("admin");
    await page.goto("/admin/settings");
    const form = page.getByRole("form", { name: "Mailing from the app" });
    await expect(form.getByLabel("Price per envelope (USD; 0 when the community pays)")).toHaveValue("9.50");
    await form.getByLabel("Price per envelope (USD; 0 when the community pays)").fill("9,50");
    await form.getByLabel("Return address: city").fill("Dover");
    await form.getByRole("button", { name: "Save the mailing settings" }).click();
    await expect(form.getByText("Enter a price in dollars, such as 9.50 (0 when the community pays)")).toBeVisible();
    await expect(form.getByLabel("Return address: street")).toHaveAttribute("aria-invalid", "true");
    await expect(form.getByLabel("Return address: city")).toHaveValue("Dover");

    await form.getByLabel("Price per envelope (USD; 0 when the community pays)").fill("9.5");
    await form.getByLabel("Return address: street").fill("1 Hall Road");
    await form.getByLabel("Return address: state (two letters)").fill("de");
    await form.getByLabel("Return address: ZIP code").fill("19901");
    await form.getByRole("button", { name: "Save the mailing settings" }).click();
    await expect(page.getByText("The mailing settings are saved.")).toBeVisible();
    await expect(form.getByLabel("Return address: state (two letters)")).toHaveValue("DE");

    // Back as the demo has it: each member's own address.
    for (const field of ["street", "city", "state (two letters)", "ZIP code"])
      await form.getByLabel(`Return address: ${field}`).fill("");
    await form.getByRole("button", { name: "Save the mailing settings" }).click();
    await expect(page.getByText("The mailing settings are saved.")).toBeVisible();
    await expect(form.getByLabel("Return address: street")).toHaveValue("");
  });
});
