import { randomUUID } from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServices } from "~/context";
import { seedDemo } from "~/db/seed.server";
import { SANDBOX_CARDS } from "~/providers/payments/sandbox.server";
import { changeMembershipPlan } from "~/services/billing/account-changes.server";
import { startCheckout } from "~/services/billing/checkout.server";
import { creatorOffer } from "~/services/billing/creator-offer.server";
import { payWithSandboxCard } from "~/services/billing/pages.server";
import { startPageCheckout } from "~/services/billing/subscription-page.server";
import { loadViewer } from "~/services/session.server";
import { setupPage, startChosenPlanCheckout } from "~/services/setup.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { createSession, createUser } from "../helpers/users";

const card = { cardNumber: SANDBOX_CARDS.success, expiry: "12/39", cvc: "123" };

describe.each(drivers)("a new member's way to a plan and to the NoL creator (%s)", (driver) => {
  let database: TestDatabase;
  let context: AppLoadContext;
  let services: AppServices;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    context = testContext(database);
    services = context.app!;
  });
  afterAll(async () => {
    await database?.dispose();
  });

  const viewerOf = async (overrides: Parameters<typeof createUser>[1] = {}) => {
    const user = await createUser(database.db, overrides);
    const session = await createSession(database.db, user.id);
    return async () => (await loadViewer(database.db, session.id))!;
  };
  const subscribed = async (planId: string, overrides: Parameters<typeof createUser>[1] = {}) => {
    const viewer = await viewerOf(overrides);
    const checkout = await startCheckout(
      services,
      { viewer: await viewer() },
      { attempt: randomUUID(), planId, donationCents: null, couponSlug: null },
    );
    await payWithSandboxCard(services, checkout, card);
    return viewer;
  };
  const pageCheckout = (planId: string, email: string | null, couponSlug: string | null = null) =>
    startPageCheckout(services, new Request("http://localhost/subscription", { method: "POST" }), null, {
      attempt: randomUUID(),
      planId,
      donationCents: null,
      couponSlug,
      email,
      returnPath: null,
    });

  it("sends a visitor who chooses a membership to sign up with the plan, keeping the offer", async () => {
    const started = await pageCheckout("monthly", null, "welcome");
    expect(started.next).toBe("/signup?plan=monthly");
    expect(started.setCookie).toMatch(/^mh_coupon=/);
    expect((await pageCheckout("annual", null)).setCookie).toBeNull();
  });

  it("still asks a visitor's donation or credit for the receipt's e-mail", async () => {
    await expect(pageCheckout("notarize-credit", null)).rejects.toThrow("Enter your e-mail for the receipt");
  });

  it("shows setup's plans with what they include, priced with the offer, the chosen one preselected", async () => {
    const viewer = await viewerOf({ needsSetup: true, setupStep: "membership" });
    const page = await setupPage(services, await viewer(), "membership", "welcome", "annual");
    const byId = Object.fromEntries(page.plans.map((entry) => [entry.plan.id, entry]));
    expect(byId.supporter?.plan.description).toMatch(/without the NoL creator/);
    expect(byId.monthly?.quote).toMatchObject({ listAmountCents: 2000, amountCents: 1800 });
    expect(byId.supporter?.quote).toMatchObject({ listAmountCents: 500, amountCents: 500 });
    expect(page.coupon).toMatchObject({ slug: "welcome", name: "Welcome 10% off" });
    expect(page.chosen).toBe("annual");
    expect((await setupPage(services, await viewer(), "membership", null, "no-such-plan")).chosen).toBeNull();
  });

  it("starts the chosen plan's checkout with the offer, and none for a plan that is not a membership", async () => {
    const viewer = await viewerOf({ needsSetup: true, setupStep: "membership" });
    const checkout = await startChosenPlanCheckout(services, await viewer(), {
      planId: "monthly",
      couponSlug: "welcome",
    });
    expect(checkout).toMatchObject({ planId: "monthly", listAmountCents: 2000, amountCents: 1800 });
    const none = await startChosenPlanCheckout(services, await viewer(), { planId: "donation", couponSlug: null });
    expect(none).toBeNull();
  });

  it("tells each member their way to the NoL creator, and nothing once the upgrade opens it", async () => {
    const newcomer = await viewerOf();
    expect((await creatorOffer(services, await newcomer()))?.way).toEqual({ kind: "subscribe" });
    const admin = await viewerOf({ admin: true });
    const adminOffer = await creatorOffer(services, await admin());
    expect(adminOffer?.way).toEqual({ kind: "admin" });
    expect(adminOffer?.memberPage).toBe(`/members/${(await admin()).member.id}`);
    expect(await creatorOffer(services, await (await viewerOf({ nolCreator: true }))())).toBeNull();

    const supporter = await subscribed("supporter");
    const offer = await creatorOffer(services, await supporter());
    expect(offer?.way).toEqual({ kind: "upgrade", planIds: ["monthly", "annual"] });
    expect(offer?.plans.map((plan) => [plan.title, plan.price])).toEqual([
      ["Monthly membership", "$20.00 a month"],
      ["Annual membership", "$200.00 a year"],
    ]);
    await changeMembershipPlan(services, await supporter(), { attempt: randomUUID(), planId: "monthly" });
    expect(await creatorOffer(services, await supporter())).toBeNull();
  });
});
