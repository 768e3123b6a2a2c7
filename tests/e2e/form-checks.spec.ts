import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/**
 * The forms' state in the browser (app/components/forms/form-state.ts, decision 065), on the
 * support page's form: its schema checks a field as it is left, then as it is typed in, and
 * the whole form on submit; without the schema the action checks it.
 */

function supportForm(page: Page) {
  const form = page.locator("main form").first();
  return {
    form,
    email: form.getByLabel("Your e-mail address"),
    subject: form.getByLabel("Subject"),
    message: form.getByLabel("Message"),
    send: form.getByRole("button", { name: "Send" }),
  };
}

/** Leaves the subject empty once the schema is there (it loads at the page's first key or pointer). */
async function leaveSubjectEmpty(page: Page) {
  const { subject } = supportForm(page);
  await expect(async () => {
    await subject.click();
    await subject.press("End");
    await subject.blur();
    await expect(subject).toHaveAttribute("aria-invalid", "true", { timeout: 500 });
  }).toPass();
}

test("a field is checked when it is left, then as it is typed in; the fields not left are not", async ({ page }) => {
  await page.goto("/support");
  const { form, email, subject, message } = supportForm(page);
  await leaveSubjectEmpty(page);
  await expect(form.getByText("Say what it is about")).toBeVisible();
  expect(await subject.getAttribute("aria-describedby")).toMatch(/-subject-error$/);
  await expect(message).not.toHaveAttribute("aria-invalid");
  await expect(email).not.toHaveAttribute("aria-invalid");

  await subject.pressSequentially("Help");
  await expect(subject).not.toHaveAttribute("aria-invalid");
  await expect(form.getByText("Say what it is about")).toHaveCount(0);
  await subject.fill("");
  await expect(subject).toHaveAttribute("aria-invalid", "true");
});

test("a wrong form is stopped in the browser at its first wrong field, every field then checked as typed", async ({
  page,
}) => {
  await page.goto("/support");
  const { form, email, subject, message, send } = supportForm(page);
  await leaveSubjectEmpty(page);
  await subject.fill("Help");
  const sent: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") sent.push(request.url());
  });
  await send.click();
  await expect(email).toBeFocused();
  await expect(email).toHaveAttribute("aria-invalid", "true");
  await expect(message).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByText("Write your message")).toBeVisible();
  expect(sent).toEqual([]);

  await message.pressSequentially("Hello");
  await expect(message).not.toHaveAttribute("aria-invalid");
  await expect(email).toHaveAttribute("aria-invalid", "true");
});

test.describe("before the schema has loaded", () => {
  // The schema's chunk is refused, and the action answers 400: the browser logs both.
  test.use({ expectedConsoleErrors: [/ERR_FAILED|status of 400/] });

  test("the form goes to its action, whose answer shows by the fields, keeps what was typed and focuses the first wrong field", async ({
    page,
  }) => {
    // The schema library's scripts are refused: the browser cannot check the form.
    await page.route(/\/build\/.*\.js$/, async (route) => {
      const response = await route.fetch();
      if ((await response.text()).includes("ZodError")) return route.abort();
      return route.fulfill({ response });
    });
    await page.goto("/support");
    const { email, subject, send } = supportForm(page);
    await subject.fill("Help");
    const answer = page.waitForResponse((response) => response.request().method() === "POST");
    await send.click();
    expect((await answer).status()).toBe(400);
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(email).toBeFocused();
    await expect(subject).toHaveValue("Help");
    await expect(subject).not.toHaveAttribute("aria-invalid");
  });
});
