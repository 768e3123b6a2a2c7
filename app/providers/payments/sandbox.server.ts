import { randomBytes } from "node:crypto";
import { cardNotExpired } from "~/domain/card";
import type { PaymentsProvider } from "./types";

export const SANDBOX_SUCCESS_CARD = "4242424242424242";
export const SANDBOX_DECLINE_CARD = "4000000000000002";

function addInterval(from: Date, interval: "month" | "year"): Date {
  const end = new Date(from);
  if (interval === "month") end.setUTCMonth(end.getUTCMonth() + 1);
  else end.setUTCFullYear(end.getUTCFullYear() + 1);
  return end;
}

/**
 * The built-in payments provider: no account, no network. It takes the test card
 * 4242 4242 4242 4242 and declines 4000 0000 0000 0002, like a card network's test mode.
 */
export function sandboxPayments(): PaymentsProvider {
  return {
    name: "sandbox",
    async startMembership({ plan, card, now }) {
      if (!cardNotExpired(card.expiry, now)) return { ok: false, message: "Your card has expired." };
      if (card.cardNumber === SANDBOX_DECLINE_CARD) return { ok: false, message: "Your card was declined." };
      if (card.cardNumber !== SANDBOX_SUCCESS_CARD) {
        return { ok: false, message: "This is the sandbox: use the test card 4242 4242 4242 4242." };
      }
      const prefix = plan.kind === "subscription" ? "sub_sandbox_" : "pi_sandbox_";
      return {
        ok: true,
        providerRef: `${prefix}${randomBytes(9).toString("base64url")}`,
        periodEnd: plan.kind === "subscription" && plan.interval ? addInterval(now, plan.interval) : null,
      };
    },
  };
}
