import { expect, test } from "./fixtures";

test("a member suggests a respondent, an admin approves it, and it fills a slot of a notice; the notice gets a correction", async ({
  page,
  signIn,
  pageAs,
}) => {
  test.setTimeout(90_000);
  await signIn("creator");
  const name = `Harbour Master ${Date.now()}`;

  // The directory answers a search by name and place.
  await page.goto("/respondents");
  await page.getByRole("search", { name: "Respondents" }).getByLabel("Name").fill("clerk");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("row", { name: /County Clerk Example/ })).toBeVisible();

  await page.getByRole("link", { name: "Suggest a new respondent" }).click();
  await expect(page.getByRole("heading", { name: "Suggest a new respondent" })).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Kind of respondent").selectOption("Official");
  await page.getByLabel("Agency or company (optional)").fill("Port Authority");
  await page.getByLabel("Place").fill("Halifax, CA");
  await page.getByLabel("Why they belong in the directory").fill("Issues the port's notices");
  await page.getByRole("button", { name: "Send the suggestion" }).click();
  await expect(page.getByText(/waits for an admin's review/)).toBeVisible();

  const admin = await pageAs("admin");
  await admin.goto("/respondents/review");
  const request = admin.getByRole("article").filter({ hasText: name });
  await request.getByLabel("Note to the member (optional)").fill("Welcome to the directory");
  await request.getByRole("button", { name: "Approve" }).click();
  const approved = admin.getByText("The request is approved; the member is told by e-mail.");
  await expect(approved).toBeVisible();
  // The message stays while the page's data is refreshed (as a login recheck does), though
  // the server gives it to one response only.
  const flashRefreshed = await admin.evaluate(async () => {
    type RouterState = { revalidation: string; loaderData: { root: { flash: unknown } } };
    const { __remixRouter: router } = window as unknown as {
      __remixRouter: { revalidate(): void; subscribe(listener: (state: RouterState) => void): () => void };
    };
    const refreshed = await new Promise<RouterState>((done) => {
      const stop = router.subscribe((state) => {
        if (state.revalidation !== "idle") return;
        stop();
        done(state);
      });
      router.revalidate();
    });
    await new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted)));
    return refreshed.loaderData.root.flash;
  });
  expect(flashRefreshed).toBeNull();
  await expect(approved).toBeVisible();

  // From a new notice, the directory puts the respondent in the first free slot.
  const version = `Port ${Date.now()}`;
  await page.goto(`/nol/creator/traffic-stop/notice?version=${encodeURIComponent(version)}`);
  await page.getByRole("link", { name: "Find a respondent in the directory" }).click();
  await expect(page.getByText("Choose a respondent for your notice")).toBeVisible();
  await page.getByRole("search", { name: "Respondents" }).getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByRole("link", { name: `Use ${name} in my notice` }).click();
  await expect(page.getByText(`${name} is in respondent slot 1.`)).toBeVisible();
  await expect(page.getByLabel("Respondent 1", { exact: true })).toHaveValue(name);
  await expect(page.getByLabel("Type of respondent 1")).toHaveValue("Official");
  await page.getByLabel("Claimant's name").fill("Cara Creator");
  await page.getByLabel("Daily amount (USD)").fill("250");
  await page.getByRole("button", { name: "Save Round 1 Notice of Liability" }).click();
  await expect(page.locator("article.version").filter({ hasText: version })).toBeVisible();

  // The directory now counts the notice that names them.
  await page.goto(`/respondents?${new URLSearchParams({ q: name })}`);
  await expect(
    page
      .getByRole("row", { name: new RegExp(name) })
      .getByRole("cell")
      .nth(3),
  ).toHaveText("1");

  // From the member's notices, the correction form opens on the version's latest notice.
  await page.goto("/profile/notices");
  await page.getByRole("link", { name: `File a correction of ${version}` }).click();
  await expect(page.getByRole("heading", { name: "Notice of correction" })).toBeVisible();
  await expect(page.getByLabel("Notice and round").locator("option:checked")).toHaveText(`TS · ${version} · Round 1`);
  await page.getByLabel("What changes").fill("The daily amount is 300");
  await page.getByRole("button", { name: "File the correction" }).click();
  await expect(page.getByText(new RegExp(`Correction #\\d+ of TS · ${version} · Round 1 is filed\\.`))).toBeVisible();
  // The filed correction opens by its view link.
  await page
    .getByRole("link", { name: /^Correction #\d+$/ })
    .first()
    .click();
  await expect(page.getByRole("heading", { name: /^Notice of correction #\d+$/ })).toBeVisible();
  await expect(page.getByText("The daily amount is 300")).toBeVisible();
});
