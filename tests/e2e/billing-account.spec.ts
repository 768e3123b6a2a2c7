import { CHROMIUM_PATH, PARTITIONED_STORAGE_ARGS } from "./chromium";
import { expect, test } from "./fixtures";
import { payWithCard, signUpToMembership } from "./new-member";

test("a member subscribes, cancels at the period's end, and sees CANCELED once an admin renews the membership", async ({
  page,
  pageAs,
}) => {
  // A member of their own, signed up and signed in, with no membership yet.
  const admin = await pageAs("admin");
  const { username, email } = await signUpToMembership(page, admin);

  await page.goto("/subscription");
  await page.getByLabel(/^Monthly membership/).check();
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await payWithCard(page, "4242 4242 4242 4242");
  await expect(page.getByText("Thank you: your membership is active.")).toBeVisible();

  await page.goto("/profile");
  await page.getByRole("navigation", { name: "Profile" }).getByRole("link", { name: "Membership and billing" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Billing and payments" })).toBeVisible();
  const facts = page.getByRole("table").first();
  await expect(facts.getByRole("row", { name: /Plan/ })).toContainText("Monthly membership");
  await expect(facts.getByRole("row", { name: /Status/ })).toContainText("Active");
  await expect(facts.getByRole("row", { name: /Next payment/ })).toContainText("$20.00");
  await expect(facts.getByRole("row", { name: /Card on file/ })).toContainText("Visa ending in 4242, expires 12/2039");
  const history = page.getByRole("table").last();
  await expect(history.getByRole("row", { name: /Monthly membership/ })).toContainText("Paid");
  await history
    .getByRole("row", { name: /Monthly membership/ })
    .getByRole("link", { name: /^Receipt of/ })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Receipt" })).toBeVisible();
  await page.getByRole("button", { name: "E-mail me this receipt" }).click();
  await expect(page.getByText(`The receipt is on its way to ${email}.`)).toBeVisible();
  await page.getByRole("link", { name: "Billing and payments" }).click();

  // The confirm button: the first click arms it, the second cancels. Before the page's script
  // runs, the button submits at once (as without JavaScript): wait for it.
  await page.waitForFunction(() => "__remixRouter" in window);
  await page.getByRole("button", { name: "Cancel at the end of the period" }).click();
  await page.getByRole("button", { name: "Click again to confirm" }).click();
  await expect(page.getByText(/Your membership ends on .+\. You can resume it until then\./)).toBeVisible();
  await expect(facts.getByRole("row", { name: /Status/ })).toContainText("Active until the end of this period");
  await expect(page.getByRole("button", { name: "Resume your membership" })).toBeVisible();

  await admin.goto(`/members?q=${username}`);
  await admin.getByRole("link", { name: username }).click();
  const billing = admin.getByRole("region", { name: "Billing", exact: true });
  await expect(billing.getByRole("row", { name: /At the period's end/ })).toContainText("Ends");
  await billing.getByRole("button", { name: "Renew now" }).click();
  await expect(
    admin.getByText(`${username}'s membership has ended, as it was set to at its period's end.`),
  ).toBeVisible();

  await page.goto("/profile/billing");
  await expect(page.locator(".warning-bar")).toHaveText(/Your subscription is cancelled\./);
  await expect(facts.getByRole("row", { name: /Status/ })).toContainText("Cancelled");
  await expect(page.getByRole("link", { name: "Choose a membership" })).toHaveAttribute("href", "/subscription");
  await page.goto("/");
  await expect(page.locator(".warning-bar")).toContainText("cancelled");
});

test("the learning site's frame shows the member's membership and opens paying in the top window", async ({
  playwright,
  baseURL,
  signInFrame,
}) => {
  // A browser that gives the learning site's frame storage of its own (see frame-storage.spec.ts).
  const browser = await playwright.chromium.launch({ executablePath: CHROMIUM_PATH, args: PARTITIONED_STORAGE_ARGS });
  try {
    const page = await (await browser.newContext({ baseURL })).newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await signInFrame("member", page);
    const api = page.waitForRequest((r) => r.url().endsWith("/api/billing/membership"));
    await page.goto(
      `${process.env.E2E_LEARNING_SITE}/frame?src=${encodeURIComponent(`${baseURL}/embed/subscription`)}`,
    );
    const signed = await api;
    expect(signed.headers()["state-sig"]).toMatch(/^[0-9a-f]{64}$/);
    expect(signed.headers().cookie).toBeUndefined();
    const frame = page.frameLocator("iframe");
    await expect(frame.getByRole("row", { name: /Plan/ })).toContainText("Supporter membership");
    await expect(frame.getByRole("row", { name: /Status/ })).toContainText("Active");
    await expect(frame.getByRole("row", { name: /Renews on/ })).toContainText("$5.00");
    await expect(frame.getByRole("link", { name: "Manage your membership, card and payments" })).toHaveAttribute(
      "target",
      "_top",
    );
    const donation = frame.getByRole("link", { name: /^Donation/ });
    await expect(donation).toHaveAttribute("target", "_top");
    await expect(donation).toHaveAttribute("href", /\/subscription\?plan=donation$/);
    expect(errors).toEqual([]);
  } finally {
    await browser.close();
  }
});
