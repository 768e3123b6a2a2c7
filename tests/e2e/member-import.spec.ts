import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "./fixtures";
import { fillProfileStep, openOutbox } from "./new-member";
import { expectNothingCutOff } from "./on-screen";

/** A day some days from today, as YYYY-MM-DD. */
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/**
 * A plain spreadsheet's CSV of `count` members, every e-mail new to this run; the first has a
 * complimentary Monthly membership for 30 days, and one line has no valid e-mail.
 */
function membersCsv(prefix: string, count: number) {
  const lines = ["Email,Name,Country,Labels,Complimentary plan,Complimentary until,Newsletter"];
  for (let i = 0; i < count; i += 1) {
    const email = i === 500 ? "no-address-here" : `${prefix}${i}@example.org`;
    const plan = i === 0 ? `monthly,${day(30)}` : ",";
    lines.push(`${email},Imported ${i},GB,"Spring, Imported",${plan},${i % 2 === 0 ? "yes" : "no"}`);
  }
  return Buffer.from(`${lines.join("\r\n")}\r\n`);
}

test("an admin imports a 1,000-row CSV (dry run, then the import with its progress); the members are listed, and one sets a password from the invitation, signs in and reaches the NoL creator with the complimentary membership the file gave", async ({
  page,
  pageAs,
}) => {
  test.setTimeout(120_000);
  const admin = await pageAs("admin");
  const prefix = `imp${Date.now().toString(36)}n`;

  await admin.goto("/members");
  await admin.getByRole("link", { name: "Import members from a CSV file" }).click();
  await expect(admin.getByRole("heading", { name: "Import members", level: 1 })).toBeVisible();
  await admin.getByLabel("CSV file").setInputFiles({
    name: "spring-members.csv",
    mimeType: "text/csv",
    buffer: membersCsv(prefix, 1_000),
  });
  await admin.getByRole("button", { name: "Check the file (dry run)" }).click();

  // The dry run: its report, and nothing imported yet.
  await expect(admin.getByRole("heading", { name: "Import of spring-members.csv" })).toBeVisible();
  await expect(admin.getByText("1,000 rows: 999 new members, 0 updates, 1 skipped.")).toBeVisible();
  await admin.getByRole("link", { name: "Skipped" }).click();
  await expect(admin.getByRole("row", { name: /502 no-address-here/ })).toContainText(
    "Not a valid e-mail address: no-address-here",
  );
  // On a phone the report's rows show whole, each a card of labelled lines.
  await admin.setViewportSize({ width: 390, height: 844 });
  await expect(admin.getByRole("cell", { name: "no-address-here", exact: true })).toHaveAttribute(
    "data-label",
    "E-mail",
  );
  await expectNothingCutOff(admin, "the import's report on a phone");
  await admin.setViewportSize({ width: 1280, height: 720 });
  await admin.goto(`/members?${new URLSearchParams({ q: `${prefix}1@` })}`);
  await expect(admin.getByText("No member matches these filters.")).toBeVisible();
  await admin.goBack();

  await admin.getByRole("button", { name: "Import 999 members" }).click();
  await expect(admin.getByRole("progressbar", { name: "Rows imported" })).toBeVisible();
  await expect(admin.getByText("1,000 of 1,000 rows done: 999 created, 0 updated, 1 skipped.")).toBeVisible({
    timeout: 60_000,
  });
  const report = admin.waitForEvent("download");
  await admin.getByRole("link", { name: "Download the report (CSV)" }).click();
  expect((await report).suggestedFilename()).toBe("spring-members-import-report.csv");

  await admin.goto(`/members?${new URLSearchParams({ q: `${prefix}7@` })}`);
  await expect(admin.getByRole("row", { name: new RegExp(`${prefix}7@example.org`) })).toBeVisible();
  // The counts right after the import: the file's members exactly, and the whole list past its
  // exact count as an estimate no lower than what was just imported (its statistics refreshed).
  const counted = admin.getByRole("status").filter({ hasText: /members? match/ });
  await admin.goto(`/members?${new URLSearchParams({ q: prefix })}`);
  await expect(counted).toHaveText("999 members match");
  await admin.goto("/members");
  await expect(counted).toHaveText(/^About [\d,]+ members match$/);
  const about = Number((await counted.textContent())!.replace(/\D/g, ""));
  expect(about).toBeGreaterThanOrEqual(999);

  // The invitation, from the outbox: the member chooses a password and signs in.
  const email = `${prefix}0@example.org`;
  await expect(async () => {
    await openOutbox(admin, { to: email });
    await admin
      .getByRole("row", { name: new RegExp(email) })
      .getByRole("link", { name: /choose a password/ })
      .click({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  const text = await admin.locator("pre.mail").textContent();
  const link = new URL(/http\S+\/login\/welcome\?token=\S+/.exec(text ?? "")![0]);
  await page.goto(link.pathname + link.search);
  await expect(page.getByRole("heading", { name: "Choose your password" })).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill("an imported member's phrase");
  await page.getByLabel("Password again").fill("an imported member's phrase");
  await page.getByRole("button", { name: "Save my password" }).click();
  await expect(page.getByText("Your password is saved. Log in with it.")).toBeVisible();
  await page.getByLabel("Username or e-mail").fill(email);
  await page.getByLabel("Password").fill("an imported member's phrase");
  await page.getByRole("button", { name: "Log in" }).click();

  // Setup asks for their details; the membership the file gave is theirs, so the creator is open.
  await expect(page.getByText("Your account is not ready yet")).toBeVisible();
  await page.getByRole("link", { name: "Continue setup" }).click();
  await fillProfileStep(page);
  await page.goto("/nol/creator");
  await expect(page.getByRole("link", { name: "Traffic Stop" })).toBeVisible();
});

test("a file over the import's limit is refused on the page with its words, the form kept, and nothing sent", async ({
  pageAs,
}) => {
  const admin = await pageAs("admin");
  await admin.goto("/members/import");
  await expect(admin.getByRole("heading", { name: "Import members", level: 1 })).toBeVisible();
  let uploads = 0;
  admin.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === "/members/import") uploads += 1;
  });
  const header = Buffer.from("email,name\n");
  // Over 50 MB a file is handed to the browser by its path.
  const big = path.join(mkdtempSync(path.join(os.tmpdir(), "memberhall-import-")), "too-big.csv");
  writeFileSync(big, Buffer.concat([header, Buffer.alloc(50 * 1024 * 1024, "a")]));
  await admin.getByLabel("CSV file").setInputFiles(big);
  const refusal = admin.getByRole("alert");
  await expect(refusal).toContainText("The file is larger than 50 MB, the largest an import takes.");
  await admin.getByRole("button", { name: "Check the file (dry run)" }).click();
  await expect(refusal).toContainText("The file is larger than 50 MB");
  await expect(admin.getByRole("heading", { name: "Import members", level: 1 })).toBeVisible();
  await expect(admin.getByText("An error was detected and reported")).toHaveCount(0);
  await expect(admin.getByLabel("CSV file")).toBeVisible();
  expect(uploads).toBe(0);

  // A file within the limit, chosen instead, clears the refusal.
  await admin.getByLabel("CSV file").setInputFiles({ name: "small.csv", mimeType: "text/csv", buffer: header });
  await expect(refusal).toHaveCount(0);
  rmSync(path.dirname(big), { recursive: true, force: true });
});
