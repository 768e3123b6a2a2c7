import { expect, test, type Page } from "@playwright/test";

/**
 * A member made as a visitor makes one: signs up, confirms the e-mail from the outbox (read
 * by an admin) and fills in the profile step, leaving the page on setup's membership step.
 */
export async function signUpToMembership(page: Page, admin: Page): Promise<{ username: string; email: string }> {
  await page.goto("/signup");
  const made = await signUpAndConfirm(page, admin);
  await fillProfileStep(page);
  await expect(page.getByRole("heading", { name: "Membership" })).toBeVisible();
  return made;
}

/**
 * Signs up on the sign-up form the page shows and opens the e-mailed confirmation link,
 * leaving the page where that link leads.
 */
export async function signUpAndConfirm(page: Page, admin: Page): Promise<{ username: string; email: string }> {
  // A new account's password hash takes seconds when both cores are busy: a test that makes
  // one and then pays has a minute at least.
  const info = test.info();
  info.setTimeout(Math.max(info.timeout, 60_000));
  const username = `e2e${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const email = `${username}@example.org`;
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("E-mail address").fill(email);
  await page.getByLabel("Password").fill("a very private phrase");
  await page.getByLabel(/I accept the/).check();
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
  await page.goto(await confirmationLink(admin, email));
  await expect(page.getByText("Your e-mail address is confirmed.")).toBeVisible();
  return { username, email };
}

/**
 * Opens the outbox (where the built-in mail provider delivers, which an admin can read) on the
 * mails to an address or with a subject: the tests share one outbox, and another test's mails
 * (an import's invitations) can fill its newest pages.
 */
export async function openOutbox(admin: Page, filter: { to?: string; subject?: string }): Promise<void> {
  const search = new URLSearchParams(Object.entries(filter).filter((entry): entry is [string, string] => !!entry[1]));
  await admin.goto(`/db/mail_outbox?${search}`);
}

/** The confirmation link e-mailed to `email`, as a path, read from the outbox by an admin. */
export async function confirmationLink(admin: Page, email: string): Promise<string> {
  await openOutbox(admin, { to: email });
  await admin
    .getByRole("row", { name: new RegExp(email) })
    .getByRole("link", { name: "Confirm your e-mail address" })
    .click();
  const text = await admin.locator("pre.mail").textContent();
  const link = /http\S+\/signup\/verify\?token=\S+/.exec(text ?? "")?.[0];
  expect(link).toBeTruthy();
  return new URL(link!).pathname + new URL(link!).search;
}

/** Fills setup's details step and continues. */
export async function fillProfileStep(page: Page): Promise<void> {
  await page.getByLabel("Your name").fill("Erin Example");
  await page.getByLabel("Country").selectOption("CA");
  await page.getByRole("button", { name: "Continue" }).click();
}

/** Fills the sandbox's card form (labelled as Stripe's Payment Element labels its fields) and pays. */
export async function payWithCard(page: Page, number: string): Promise<void> {
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiration date").fill("12 / 39");
  await page.getByLabel("Security code").fill("123");
  await page.getByRole("button", { name: /^Pay / }).click();
}
