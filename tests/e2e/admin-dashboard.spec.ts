import { expect, test } from "./fixtures";

test("/admin shows how many respondent suggestions and reassessment requests wait, linking to the review", async ({
  page,
  signIn,
  pageAs,
}) => {
  test.setTimeout(60_000);
  await signIn("member");
  const name = `Dashboard Example ${Date.now()}`;
  await page.goto("/suggest-a-new-respondent");
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Kind of respondent").selectOption("Agency");
  await page.getByLabel("Place").fill("Halifax, CA");
  await page.getByLabel("Why they belong in the directory").fill("Sends the notices");
  await page.getByRole("button", { name: "Send the suggestion" }).click();
  await expect(page.getByText(/waits for an admin's review/)).toBeVisible();

  const admin = await pageAs("admin");
  await admin.goto("/admin");
  const stat = admin.locator(".stat").filter({ hasText: "Respondent suggestions and reassessments waiting" });
  await expect(stat).toHaveCount(1);
  const link = stat.getByRole("link");
  await expect(link).toHaveAttribute("href", "/respondents/review");
  expect(Number((await link.textContent())!.replace(/,/g, ""))).toBeGreaterThanOrEqual(1);

  await link.click();
  await expect(admin.getByRole("heading", { name: "Suggestions and reassessment requests" })).toBeVisible();
  const request = admin.getByRole("article").filter({ hasText: name });
  await expect(request).toBeVisible();
  // Decided, it leaves the queue (the count is read again on /admin).
  await request.getByRole("button", { name: "Reject" }).click();
  await expect(admin.getByText("The request is rejected; the member is told by e-mail.")).toBeVisible();
});
