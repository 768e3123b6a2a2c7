import { readPdf } from "../helpers/pdf";
import { newDataDir, startServer } from "../helpers/server";
import { expect, test } from "./fixtures";
import { pageOn, SHIFTED_CLOCK } from "./own-server";
import { deliverRoundOne, saveRoundOne } from "./round-one";

const DAY_MS = 86_400_000;

/** A day some days from today, as the date fields and the timeline write it. */
function day(offset = 0) {
  const date = new Date(Date.now() + offset * DAY_MS);
  return {
    iso: date.toISOString().slice(0, 10),
    shown: new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }).format(date),
  };
}

// Two servers of their own, one after the other on one data directory: the second starts
// 22 days later by its clock, with the reminders' sweep every minute.
test("a creator's round 1 window closes 22 days on: the reminder is in the outbox, its link stops that kind, and the round's proof of service lists the respondent and tracking number", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const dataDir = newDataDir({});
  const version = `Reminded ${Date.now().toString(36)}`;
  const step = (kind: string) => `/nol/creator/traffic-stop/${kind}?version=${encodeURIComponent(version)}`;

  const today = await startServer({ dataDir });
  try {
    const creator = await pageOn(browser, today, "creator");
    await saveRoundOne(creator, version, "Cara Creator", "250");
    await deliverRoundOne(creator, version, { mailed: day().iso, delivered: day().iso });
    await creator.goto(step("notice"));
    const timeline = creator.getByRole("region", { name: "Timeline" });
    await expect(timeline.getByText(`Round 2 Notice of Fault can go out from ${day(22).shown}`)).toBeVisible();
    await creator.context().close();
  } finally {
    await today.stop();
  }

  const later = await startServer({
    dataDir,
    env: {
      NODE_OPTIONS: `--import=${SHIFTED_CLOCK}`,
      CLOCK_OFFSET_MS: String(22 * DAY_MS),
      NOL_REMINDERS_CRON: "* * * * *",
    },
  });
  try {
    // The sweep runs within the minute: the admin reads the outbox until the reminder is there.
    const admin = await pageOn(browser, later, "admin");
    const subject = "Your Round 2 Notice of Fault can go out now";
    await expect(async () => {
      await admin.goto("/db/mail_outbox");
      await expect(admin.getByRole("link", { name: subject })).toHaveCount(1, { timeout: 1_000 });
    }).toPass({ timeout: 90_000, intervals: [2_000] });
    await admin.getByRole("link", { name: subject }).click();
    const mail = (await admin.locator("pre.mail").textContent()) ?? "";
    expect(mail).toContain(`"${version}"`);
    expect(mail).toContain(`/nol/creator/traffic-stop/notice?version=${encodeURIComponent(version)}`);
    const unsubscribe = /http\S+\/reminders\/unsubscribe\?\S+/.exec(mail)?.[0];
    expect(unsubscribe).toBeTruthy();

    // The admins' dashboard counts the versions whose next round could go out, and lists them.
    await admin.goto("/admin");
    await admin.getByRole("link", { name: /^\d+$/ }).and(admin.locator('a[href="/admin/waiting-rounds"]')).click();
    await expect(admin.getByRole("row", { name: new RegExp(version) })).toContainText("Round 2 Notice of Fault");

    // The creator, 22 days on: today is past the window and Round 2 is no longer early.
    const creator = await pageOn(browser, later, "creator");
    await creator.goto(step("notice"));
    const timeline = creator.getByRole("region", { name: "Timeline" });
    await expect(timeline.getByText(`Today, ${day(22).shown}`)).toBeVisible();
    await expect(creator.getByLabel("Send it early anyway")).toHaveCount(0);
    // Round 1's proof of service lists the respondent and the envelope's tracking number.
    const proof = await creator.request.get(
      await timeline
        .getByRole("link", { name: "Proof of service of Round 1 Notice of Liability (PDF)" })
        .getAttribute("href")
        .then(String),
    );
    const served = (await readPdf(await proof.body())).pages.join("\n");
    expect(served).toContain("1. Officer Example (Official)");
    expect(served).toContain("Tracking number: RR123456789US");

    // The mail's link, opened with no session: one button stops that kind of reminder.
    const visitor = await pageOn(browser, later);
    const link = new URL(unsubscribe!);
    await visitor.goto(link.pathname + link.search);
    await expect(visitor.getByText("Stop the e-mails that remind you: when the next round can go out.")).toBeVisible();
    await visitor.getByRole("button", { name: "Stop these e-mails" }).click();
    await expect(visitor.getByText(/You will get no more of these e-mails/)).toBeVisible();

    await creator.goto("/profile/notices");
    // The member's notices show the version's timeline too.
    await expect(
      creator
        .getByRole("region", { name: `Timeline: Traffic Stop · ${version}` })
        .getByText("Round 1 Notice of Liability", { exact: true }),
    ).toBeVisible();
    await expect(creator.getByLabel("When the next round can go out")).not.toBeChecked();
    await expect(creator.getByLabel("When a mailing still has no proof of delivery")).toBeChecked();
    await creator.getByLabel("When the next round can go out").check();
    await creator.getByRole("button", { name: "Save the reminders" }).click();
    await expect(creator.getByText("Your reminders are saved.")).toBeVisible();
    await expect(creator.getByLabel("When the next round can go out")).toBeChecked();
  } finally {
    await later.stop();
  }
});
