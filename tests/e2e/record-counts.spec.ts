import { expect, test } from "./fixtures";

test("/db counts each kind of record, never 'about 0' for a table with rows, as its list does", async ({
  page,
  signIn,
  pageAs,
}) => {
  test.setTimeout(60_000);
  // A support request, so its table has a row made after the database was last analyzed.
  await signIn("member");
  await page.goto("/support");
  await page.getByLabel("Subject").fill(`Counting ${Date.now()}`);
  await page.getByLabel("Message").fill("Is this one counted?");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByText(/Your request #\d+ has reached our support team/)).toBeVisible();

  const admin = await pageAs("admin");
  const kinds = admin.getByRole("listitem");
  const countOf = async (title: string) => {
    await admin.goto("/db");
    const text = await kinds.filter({ has: admin.getByRole("link", { name: title, exact: true }) }).textContent();
    return text;
  };
  await admin.goto("/db");
  await expect(admin.getByRole("heading", { name: "Records" })).toBeVisible();
  for (const text of await admin.locator(".link-list li").allTextContents()) {
    expect(text).not.toMatch(/about 0\b/);
  }
  // The index and the list agree (other tests may add a request meanwhile: read both again until they do).
  await expect(async () => {
    const shown = /· ([\d,]+) records?$/.exec((await countOf("Support requests")) ?? "")?.[1];
    await admin.goto("/db/support_requests");
    const listed = /^([\d,]+) records? match/.exec(
      (await admin.getByRole("status").filter({ hasText: /match/ }).textContent()) ?? "",
    )?.[1];
    expect(shown).toBeDefined();
    expect(Number(shown!.replace(/,/g, ""))).toBeGreaterThan(0);
    expect(shown).toBe(listed);
  }).toPass({ timeout: 30_000 });
});
