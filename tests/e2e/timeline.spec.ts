import { expect, test } from "./fixtures";
import { readPdf } from "../helpers/pdf";
import { day, RESPONDENT_ADDRESS, saveRoundOne, saveStep } from "./round-one";

// A round sent before its day is refused by the action (it needs the version's dates): the
// browser logs the form's 400 answer.
test.use({ expectedConsoleErrors: [/status of 400 \(Bad Request\)/] });

test("a creator records round 1's mailing and delivery, sees the window and the next round's day, notarizes the round's proof of service, and sends the next round early only by choice", async ({
  page,
  signIn,
}) => {
  test.setTimeout(60_000);
  await signIn("creator");
  const version = `Timeline ${Date.now().toString(36)}`;
  const step = (kind: string) => `/nol/creator/traffic-stop/${kind}?version=${encodeURIComponent(version)}`;
  await saveRoundOne(page, version, "Cara Creator", "250");

  await page.goto(step("mailing"));
  await page.getByLabel("Mailing date").fill(day().iso);
  await page.getByLabel("Tracking number for Officer Example").fill("9400 1000 0000 0000 0000 00");
  await saveStep(page, version, "Round 1 Mailing", "Round 1 Proof of Delivery");

  await page.goto(step("proof"));
  const timeline = page.getByRole("region", { name: "Timeline" });
  await expect(timeline.getByRole("link", { name: /9400100000000000000000/ })).toHaveAttribute(
    "href",
    /tLabels=9400100000000000000000$/,
  );
  await page.getByLabel("The proof of delivery has arrived").check();
  await page.getByLabel("Delivery date").fill(day(1).iso);
  await page.getByRole("button", { name: "Save Round 1 Proof of Delivery" }).click();
  await expect(page.getByText("The delivery date cannot be in the future")).toBeVisible();
  await page.getByLabel("Delivery date").fill(day().iso);
  await saveStep(page, version, "Round 1 Proof of Delivery", "Round 2 Notice of Fault");

  await page.goto(step("notice"));
  await expect(timeline.getByText(`21 days, until ${day(21).shown}`)).toBeVisible();
  await expect(timeline.getByText(`Today, ${day().shown}`)).toBeVisible();
  await expect(timeline.getByText(`Round 2 Notice of Fault can go out from ${day(22).shown}`)).toBeVisible();
  // The days as a calendar file: the window's last day and the next round's day.
  /** What a link of a timeline downloads. */
  const download = async (name: string, region = timeline) =>
    page.request.get(String(await region.getByRole("link", { name }).getAttribute("href")));
  const ics = await download("Add these days to your calendar (.ics)");
  expect(ics.headers()["content-type"]).toBe("text/calendar; charset=utf-8");
  const events = (await ics.text()).replace(/\r\n /g, "");
  expect(events).toContain(`DTSTART;VALUE=DATE:${day(21).iso.replace(/-/g, "")}`);
  expect(events).toContain("Round 2 Notice of Fault can go out");

  // Round 1's proof of service: its respondent with the mailing, the tracking number and the delivery.
  const proof = await download("Proof of service of Round 1 Notice of Liability (PDF)");
  expect(proof.headers()["content-type"]).toBe("application/pdf");
  // Read back with each wrapped line joined to the one before.
  const served = (await readPdf(await proof.body())).pages.join("\n").replace(/\s+/g, " ");
  for (const line of [
    "Proof of Service",
    "1. Officer Example (Official)",
    `Address: ${RESPONDENT_ADDRESS}`,
    `Mailed: ${day().shown} (by hand) · Tracking number: 9400100000000000000000 · Delivered: ${day().shown}`,
  ])
    expect(served).toContain(line);

  // The version's page: its card's Timeline link shows the same timeline above the versions.
  await page.goto("/nol/creator/traffic-stop");
  await page.getByRole("link", { name: `The timeline of ${version}` }).click();
  const versionTimeline = page.getByRole("region", { name: `Timeline: ${version}` });
  await expect(versionTimeline.getByText(`21 days, until ${day(21).shown}`)).toBeVisible();

  // There the round's proof of service is notarized online: sent, signed at the notary, downloaded.
  await versionTimeline
    .getByRole("button", { name: "Notarize the proof of service online: Round 1 Notice of Liability" })
    .click();
  await expect(page.getByText(/^The proof of service is sent to the notary/)).toBeVisible();
  await expect(versionTimeline.getByText("Sent: waiting for you to sign")).toBeVisible();
  await versionTimeline.getByRole("link", { name: "Open the signing page" }).click();
  await page.getByRole("button", { name: "Meet the notary" }).click();
  await page.getByRole("button", { name: "Sign", exact: true }).click();
  await expect(page.getByText("Signed: you can close this page")).toBeVisible();
  await page.getByRole("link", { name: /^Return to / }).click();
  await expect(versionTimeline.getByText("Completed: notarized")).toBeVisible();
  const notarized = await download(
    "The notarized proof of service of Round 1 Notice of Liability (PDF)",
    versionTimeline,
  );
  expect(notarized.headers()["content-disposition"]).toMatch(/notarized-.*-round-1-proof-of-service\.pdf/);
  const notarizedText = (await readPdf(await notarized.body())).pages.join("\n");
  expect(notarizedText).toContain("Proof of Service");
  expect(notarizedText).toContain("9400100000000000000000");

  await page.goto(step("notice"));
  // The next notice starts with the respondent's address as round 1 gave it.
  await expect(page.getByLabel("Mailing address of respondent 1 (optional)")).toHaveValue(RESPONDENT_ADDRESS);
  await page.getByRole("button", { name: "Save Round 2 Notice of Fault" }).click();
  await expect(page.getByText(/Tick "Send it early anyway" to send it now/)).toBeVisible();
  await expect(page.getByLabel("Send it early anyway")).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("Send it early anyway").check();
  await saveStep(page, version, "Round 2 Notice of Fault", "Round 2 Mailing");

  // On a 390-px phone the timeline fits the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(step("mailing"));
  await expect(timeline.getByText("Round 1 Notice of Liability", { exact: true })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
