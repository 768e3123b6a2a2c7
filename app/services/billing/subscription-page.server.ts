import { isComplimentary } from "~/domain/complimentary";
import { formatDate } from "~/lib/format";
import { eq } from "drizzle-orm";
import type { AppServices } from "~/context";
import { invalid } from "~/domain/errors";
import { plans } from "~/db/schema";
import { siteCookies, type Viewer } from "../session.server";
import { formatMoney } from "~/lib/format";
import { billingCatalogue, couponOfSlug, type Catalogue } from "./catalogue.server";
import { signupPathFor } from "./chosen-plan.server";
import { creatorOffer, type CreatorOffer } from "./creator-offer.server";
import { liveSubscription, startCheckout } from "./checkout.server";
import { checkoutPagePath, rememberVisitorCheckout } from "./pages.server";

export type SubscriptionPageData = Catalogue & {
  attempt: string;
  /** The plan the address asks for (?plan=), preselected. */
  chosen: string | null;
  signedIn: boolean;
  email: string | null;
  /** The member's membership in force: the page then points to the profile instead. */
  membership: { plan: string; status: string } | null;
  /** A complimentary membership in force, in words: the member may pay for a plan, which takes its place once paid. */
  complimentaryNote: string | null;
  /** How the member gets the NoL creator when their membership (or account) lacks it. */
  creatorOffer: CreatorOffer | null;
};

/** A one-off payment a member may make at any time: a donation of their choice or a notarize credit. */
export type OneOffOffer = {
  attempt: string;
  plans: { id: string; title: string; kind: "donation" | "credit"; price: string | null }[];
  donation: { minCents: number; maxCents: number };
  /** The notarize page a credit is bought from, to go back to once paid. */
  returnTo: string | null;
};

export async function oneOffOffer(
  services: AppServices,
  attempt: string,
  returnTo: string | null = null,
): Promise<OneOffOffer> {
  const catalogue = await billingCatalogue(services, null);
  const plans = catalogue.plans.flatMap(({ plan, quote }) =>
    plan.kind === "subscription"
      ? []
      : [
          {
            id: plan.id,
            title: plan.title,
            kind: plan.kind,
            price: quote ? formatMoney(quote.amountCents, quote.currency) : null,
          },
        ],
  );
  return { attempt, plans, donation: catalogue.donation, returnTo };
}

/** The offer in force: the one in the address, else the one a coupon landing kept. */
async function offerSlug(services: AppServices, request: Request): Promise<string | null> {
  const given = new URL(request.url).searchParams.get("coupon");
  if (given && /^[\w-]{1,64}$/.test(given)) return given;
  const kept: unknown = await siteCookies(services.config).coupon.parse(request.headers.get("cookie"));
  return typeof kept === "string" ? kept : null;
}

function complimentaryNote(plan: string, ends: Date | null): string {
  const until = ends ? ` until ${formatDate(ends)}` : "";
  return `You have the ${plan} as a complimentary membership${until}. To pay for a membership yourself, choose it below: it takes the complimentary one's place once paid.`;
}

export async function subscriptionPage(
  services: AppServices,
  request: Request,
  viewer: Viewer | null,
  attempt: string,
): Promise<SubscriptionPageData> {
  const catalogue = await billingCatalogue(services, await offerSlug(services, request));
  const live = viewer ? await liveSubscription(services, viewer.member.id) : null;
  const [livePlan] = live ? await services.db.select().from(plans).where(eq(plans.id, live.planId)) : [];
  // A complimentary membership may be paid for: its plans stay on offer.
  const paid = live && !isComplimentary(live);
  const chosen = new URL(request.url).searchParams.get("plan");
  return {
    ...catalogue,
    attempt,
    chosen:
      chosen &&
      catalogue.plans.some((entry) => entry.plan.id === chosen && !(paid && entry.plan.kind === "subscription"))
        ? chosen
        : null,
    signedIn: viewer !== null,
    email: viewer?.member.email ?? null,
    membership: live && paid ? { plan: livePlan?.title ?? live.planId, status: live.status } : null,
    complimentaryNote: live && !paid ? complimentaryNote(livePlan?.title ?? live.planId, live.currentPeriodEnd) : null,
    creatorOffer: viewer ? await creatorOffer(services, viewer) : null,
  };
}

/** Starts the checkout of /subscription's form; a visitor's is remembered by this browser. */
export async function startPageCheckout(
  services: AppServices,
  request: Request,
  viewer: Viewer | null,
  input: {
    attempt: string;
    planId: string;
    donationCents: number | null;
    couponSlug: string | null;
    email: string | null;
    returnPath: string | null;
  },
): Promise<{ next: string; setCookie: string | null }> {
  if (!viewer) {
    // A membership needs an account: sign up first, with the plan and the offer kept.
    const [plan] = await services.db.select().from(plans).where(eq(plans.id, input.planId));
    if (plan?.active && plan.kind === "subscription") {
      const offer = input.couponSlug ? await couponOfSlug(services, input.couponSlug) : null;
      return {
        next: signupPathFor(plan.id),
        setCookie: offer ? await siteCookies(services.config).coupon.serialize(offer.slug) : null,
      };
    }
  }
  if (!viewer && !input.email) {
    throw invalid("Enter your e-mail for the receipt", { email: ["Enter your e-mail for the receipt"] });
  }
  const payer = viewer ? { viewer } : { email: input.email ?? "" };
  const checkout = await startCheckout(services, payer, input);
  return {
    next: checkoutPagePath(checkout),
    setCookie: viewer ? null : await rememberVisitorCheckout(request, services.config, checkout.id),
  };
}
