import { expect, test } from "./fixtures";
import { signUpToMembership } from "./new-member";

/** A day some days from today, as a date field takes it and as the pages write it. */
function day(offset: number) {
  const date = new Date(Date.now() + offset * 86_400_000);
  return {
    iso: date.toISOString().slice(0, 10),
    shown: new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }).format(date),
  };
}

test("an admin grants a new member a complimentary Monthly membership ending in 30 days: setup is done, the member reaches the NoL creator, and the lists say Complimentary", async ({
  page,
  pageAs,
}) => {
  const admin = await pageAs("admin");
  const { username } = await signUpToMembership(page, admin);
  const ends = day(30);

  await admin.goto(`/members?${new URLSearchParams({ q: username })}`);
  await admin.getByRole("link", { name: username, exact: true }).click();
  const grant = admin.getByRole("form", { name: "Grant a complimentary membership" });
  await grant.getByLabel("Plan").selectOption({ label: "Monthly membership" });
  await grant.getByLabel(/^Ends on/).fill(ends.iso);
  await grant.getByLabel(/^Note/).fill("Volunteer of the month");
  await grant.getByRole("button", { name: "Grant" }).click();
  await expect(
    admin.getByText(`${username} has the Monthly membership as a complimentary membership until ${ends.shown}.`),
  ).toBeVisible();
  const section = admin.getByRole("region", { name: "Complimentary membership" });
  await expect(section).toContainText(`until ${ends.shown}, granted by admin`);
  await expect(section).toContainText("Note: Volunteer of the month");

  await admin.goto("/members?status=COMPLIMENTARY");
  await expect(admin.getByRole("row", { name: new RegExp(username) })).toContainText("Complimentary");

  // The member's setup asked for a membership: it has one, so the member goes on to the creator.
  await page.goto("/nol/creator");
  await expect(page.getByRole("link", { name: "Traffic Stop" })).toBeVisible();
  await page.goto("/profile/billing");
  await expect(page.getByText("Complimentary", { exact: true })).toBeVisible();
  // The plans stay on offer, to pay for one that takes its place.
  await page.goto("/subscription");
  await expect(
    page.getByText(`You have the Monthly membership as a complimentary membership until ${ends.shown}.`, {
      exact: false,
    }),
  ).toBeVisible();
  await expect(page.getByLabel(/Annual membership/)).toBeVisible();
  await page.goto("/profile");
  await expect(page.getByRole("row", { name: /^Membership/ })).toContainText(`Complimentary · ends ${ends.shown}`);

  // The admin ends it today: every page says it has ended, none that it renews or lasts.
  await admin.goto(`/members?${new URLSearchParams({ q: username })}`);
  await admin.getByRole("link", { name: username, exact: true }).click();
  const end = admin.getByRole("button", { name: "End it now" });
  await end.click();
  await admin.getByRole("button", { name: "Click again to end it" }).click();
  const today = day(0).shown;
  await expect(admin.getByRole("row", { name: /^Membership/ })).toHaveText(
    `MembershipComplimentary, ended · ended ${today}`,
  );
  await page.goto("/profile");
  const line = page.getByRole("row", { name: /^Membership/ });
  await expect(line).toContainText(`Complimentary, ended · ended ${today}`);
  await expect(line).not.toContainText("renews");
  await expect(line).not.toContainText(ends.shown);
  await page.goto("/profile/billing");
  await expect(page.getByText("Complimentary, ended", { exact: true })).toBeVisible();
});
