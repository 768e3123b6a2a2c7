import { and, desc, eq, inArray, isNull } from "drizzle-orm";
import type { AppConfig } from "~/config/config.server";
import type { AppServices } from "~/context";
import { checkouts, plans } from "~/db/schema";
import { MAILING_PAID_MESSAGE, paymentTitle } from "~/domain/billing";
import { CREDIT_READY_MESSAGE } from "~/domain/credit-text";
import { invalid } from "~/domain/errors";
import { formatMoney } from "~/lib/format";
import { isProviderError } from "~/providers/errors";
import type { BrowserClient } from "~/providers/payments/types";
import type { Viewer } from "../session.server";
import { siteCookies } from "../session.server";
import { checkoutOutcome, intentRefOf, type CheckoutOutcome } from "./checkout-outcome.server";
import { checkoutFor, type CheckoutRow } from "./checkout.server";
import { deliverSandboxEvents, sandboxOf } from "./sandbox.server";

/** The pages of a payment: the card page, the sandbox's 3-D Secure page, and the return page. */

const CARD_PAGE = "/subscription/unsafe/card-plus";
const RETURN_PAGE = "/subscription/unsafe/payment-intent";
const AUTHENTICATE_PAGE = "/subscription/unsafe/authenticate";

export const checkoutPath = (page: string, checkout: Pick<CheckoutRow, "id">) => `${page}?checkout=${checkout.id}`;

/** Where a started checkout goes next: the card page, or straight to its outcome when nothing is due. */
export function checkoutPagePath(checkout: CheckoutRow): string {
  return checkoutPath(checkout.clientSecret && checkout.status !== "succeeded" ? CARD_PAGE : RETURN_PAGE, checkout);
}

const MAX_VISITOR_CHECKOUTS = 5;

/** The checkouts this browser started before signing in. */
export async function visitorCheckouts(request: Request, config: AppConfig): Promise<string[]> {
  const value: unknown = await siteCookies(config).checkouts.parse(request.headers.get("cookie"));
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === "string") : [];
}

/** The Set-Cookie that adds a visitor's checkout to this browser's own. */
export async function rememberVisitorCheckout(request: Request, config: AppConfig, id: string): Promise<string> {
  const kept = (await visitorCheckouts(request, config)).filter((known) => known !== id);
  return siteCookies(config).checkouts.serialize([id, ...kept].slice(0, MAX_VISITOR_CHECKOUTS));
}

export async function ownCheckout(
  services: AppServices,
  request: Request,
  viewer: Viewer | null,
  checkoutId: string,
): Promise<CheckoutRow> {
  return checkoutFor(services, viewer, checkoutId, await visitorCheckouts(request, services.config));
}

export type CheckoutSummary = {
  id: string;
  kind: CheckoutRow["kind"];
  what: string;
  amount: string;
  /** The price before the coupon, when the coupon lowers it. */
  listAmount: string | null;
  interval: "month" | "year" | null;
};

export async function checkoutSummary(services: AppServices, checkout: CheckoutRow): Promise<CheckoutSummary> {
  const [plan] = checkout.planId ? await services.db.select().from(plans).where(eq(plans.id, checkout.planId)) : [];
  const what = paymentTitle(checkout.kind, plan?.title);
  return {
    id: checkout.id,
    kind: checkout.kind,
    what,
    amount: formatMoney(checkout.amountCents, checkout.currency),
    listAmount:
      checkout.listAmountCents > checkout.amountCents ? formatMoney(checkout.listAmountCents, checkout.currency) : null,
    interval: checkout.kind === "subscription" ? (plan?.interval ?? null) : null,
  };
}

export type CardPage = {
  summary: CheckoutSummary;
  client: BrowserClient;
  /** For the provider's own card element (Stripe); the sandbox's form posts to this page. */
  clientSecret: string | null;
  returnUrl: string;
  testCards: { label: string; number: string }[] | null;
  done: boolean;
};

const TEST_CARDS = [
  { label: "Succeeds", number: "4242 4242 4242 4242" },
  { label: "Declined", number: "4000 0000 0000 0002" },
  { label: "Asks for an extra confirmation step (3-D Secure)", number: "4000 0025 0000 3155" },
  { label: "Succeeds now, fails at the first renewal", number: "4000 0000 0000 0341" },
];

export async function cardPage(services: AppServices, checkout: CheckoutRow): Promise<CardPage> {
  const provider = services.providers.payments;
  return {
    summary: await checkoutSummary(services, checkout),
    client: provider.client,
    clientSecret: provider.client.kind === "stripe" ? checkout.clientSecret : null,
    returnUrl: `${services.config.baseUrl}${checkoutPath(RETURN_PAGE, checkout)}`,
    testCards: provider.client.kind === "sandbox" ? TEST_CARDS : null,
    done: checkout.status === "succeeded" || !checkout.clientSecret,
  };
}

/**
 * The sandbox card form's submit: the sandbox confirms the intent with the card; its events
 * are handed over at once. Answers where to go next, or why the card was refused.
 */
export async function payWithSandboxCard(
  services: AppServices,
  checkout: CheckoutRow,
  card: { cardNumber: string; expiry: string; cvc: string },
): Promise<{ next: string }> {
  if (!checkout.clientSecret) return { next: checkoutPath(RETURN_PAGE, checkout) };
  const sandbox = sandboxOf(services);
  let result;
  try {
    result = await sandbox.confirmCard(checkout.clientSecret, {
      number: card.cardNumber,
      expiry: card.expiry,
      cvc: card.cvc,
    });
  } catch (error) {
    if (isProviderError(error, "payment_declined")) throw invalid(error.message);
    throw error;
  }
  await deliverSandboxEvents(services);
  if (result.status === "requires_action") return { next: checkoutPath(AUTHENTICATE_PAGE, checkout) };
  if (result.failureMessage) throw invalid(result.failureMessage, { cardNumber: [result.failureMessage] });
  return { next: checkoutPath(RETURN_PAGE, checkout) };
}

export type AuthenticatePage = { summary: CheckoutSummary; waiting: boolean };

export async function authenticatePage(services: AppServices, checkout: CheckoutRow): Promise<AuthenticatePage> {
  const intentRef = intentRefOf(checkout);
  const intent = intentRef ? await sandboxOf(services).readIntentSummary(intentRef) : null;
  return { summary: await checkoutSummary(services, checkout), waiting: intent?.status === "requires_action" };
}

/** The sandbox's 3-D Secure step, completed or failed by the member. */
export async function authenticateSandbox(
  services: AppServices,
  checkout: CheckoutRow,
  approve: boolean,
): Promise<{ next: string }> {
  const intentRef = intentRefOf(checkout);
  if (!intentRef) return { next: checkoutPath(RETURN_PAGE, checkout) };
  const result = await sandboxOf(services).authenticate(intentRef, approve);
  await deliverSandboxEvents(services);
  if (result.status !== "succeeded") return { next: checkoutPath(CARD_PAGE, checkout) + "&authentication=failed" };
  return { next: checkoutPath(RETURN_PAGE, checkout) };
}

export type ReturnPage = {
  summary: CheckoutSummary;
  outcome: CheckoutOutcome;
  retry: string | null;
  /** A visitor's donation: signing up with the same e-mail keeps it with the account. */
  claimWith: string | null;
  /** A credit bought from a notarize page, paid: the page to go back to. */
  returnTo: string | null;
  /** What the page gone back to says. */
  returnMessage: string;
};

export async function returnPage(
  services: AppServices,
  checkout: CheckoutRow,
  viewer: Viewer | null,
): Promise<ReturnPage> {
  const outcome = await checkoutOutcome(services, checkout);
  return {
    summary: await checkoutSummary(services, checkout),
    outcome,
    retry:
      outcome.status === "failed" || outcome.status === "open" || outcome.status === "requires_action"
        ? checkoutPath(CARD_PAGE, checkout)
        : null,
    claimWith: !viewer && outcome.status !== "failed" ? checkout.email : null,
    returnTo: viewer && outcome.status === "succeeded" ? checkout.returnPath : null,
    returnMessage: checkout.kind === "mailing" ? MAILING_PAID_MESSAGE : CREDIT_READY_MESSAGE,
  };
}

/**
 * spec §2.4's home warning for a visitor: a donation or credit this browser paid for before
 * signing up, which signing up with its e-mail keeps with the account.
 */
export async function visitorPayment(
  services: AppServices,
  request: Request,
): Promise<{ what: string; amount: string; email: string } | null> {
  const ids = await visitorCheckouts(request, services.config);
  if (ids.length === 0) return null;
  const rows = await services.db
    .select()
    .from(checkouts)
    .where(and(inArray(checkouts.id, ids), isNull(checkouts.userId), eq(checkouts.status, "succeeded")))
    .orderBy(desc(checkouts.createdAt))
    .limit(1);
  const paid = rows[0];
  if (!paid) return null;
  const summary = await checkoutSummary(services, paid);
  return { what: summary.what, amount: summary.amount, email: paid.email };
}
