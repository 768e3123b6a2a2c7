import { z } from "zod";
import { postalAddressSchema, postalParts, sameAddress, type Deliverability, type PostalAddress } from "./address";

/**
 * "Mail it for me" for one round, as the member fills it in: each respondent's address typed
 * (from what the notice names), what USPS's records make of it, and which address the member
 * confirmed. Nothing is sent to an address the member has not confirmed after its check, nor
 * to one USPS cannot deliver to.
 */

export type AddressParts = Partial<Record<keyof PostalAddress, string>>;

/** USPS's answer for the address as it was typed when checked. */
export type Verdict = {
  deliverability: Deliverability;
  standardized: PostalAddress | null;
  corrected: boolean;
  /** The typed address the answer is for: typing another asks again. */
  checked: PostalAddress;
};

export type OrderRecipient = {
  slot: number;
  /** The respondent as the notice names them. */
  respondent: string;
  /** Mailed this time (the member may leave one out). */
  send: boolean;
  parts: AddressParts;
  /** Field errors of the parts as typed, by part. */
  errors: Partial<Record<keyof PostalAddress, string>>;
  verdict: Verdict | null;
};

/** The respondents' letters as they start: their addresses read from what the notice has. */
export function startingRecipients(
  named: readonly { slot: number; name: string; address: Record<string, string> | string | null }[],
): OrderRecipient[] {
  return named.map((respondent) => ({
    slot: respondent.slot,
    respondent: respondent.name,
    send: true,
    parts: postalParts(respondent.name, respondent.address).parts,
    errors: {},
    verdict: null,
  }));
}

const PART_NAMES = ["name", "line1", "line2", "city", "state", "zip"] as const;

/** The parts of one address in a form, named `{prefix}.{part}`; country is always the US. */
export function partsFromForm(form: FormData, prefix: string): AddressParts {
  const parts: AddressParts = { country: "US" };
  for (const part of PART_NAMES) {
    const value = form.get(`${prefix}.${part}`);
    if (typeof value === "string") parts[part] = value.slice(0, 300);
  }
  return parts;
}

/** The parts read as an address, or the message of each wrong part. */
export function readAddress(parts: AddressParts) {
  // A part not given is an empty one: its message asks for it.
  const parsed = postalAddressSchema.safeParse({ name: "", line1: "", city: "", state: "", zip: "", ...parts });
  if (parsed.success) return { address: parsed.data, errors: {} };
  const errors: OrderRecipient["errors"] = {};
  for (const issue of parsed.error.issues) {
    const part = String(issue.path[0] ?? "line1") as keyof PostalAddress;
    errors[part] ??= issue.message;
  }
  return { address: null, errors };
}

/** Whether USPS's answer is still for the address as typed now. */
export function verdictHolds(recipient: OrderRecipient): boolean {
  const { address } = readAddress(recipient.parts);
  return Boolean(address && recipient.verdict && sameTyped(address, recipient.verdict.checked));
}

const sameTyped = (a: PostalAddress, b: PostalAddress) => a.name === b.name && sameAddress(a, b);

/** The letters to send this time. */
export const chosen = (recipients: readonly OrderRecipient[]) => recipients.filter((r) => r.send);

/** What keeps a letter from being confirmed, in the member's words; null when it can be. */
export function blocker(recipient: OrderRecipient): string | null {
  if (Object.keys(recipient.errors).length > 0) return "Correct the address, then check it again.";
  if (!recipient.verdict || !verdictHolds(recipient)) return "Check this address before paying.";
  if (recipient.verdict.deliverability === "undeliverable" || !recipient.verdict.standardized)
    return "USPS cannot deliver to this address: correct it and check it again, or leave this respondent out.";
  return null;
}

/** The page's forms, by their intent: check the addresses, pay, change them after all, cancel a letter. */
export const mailIntentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("check") }),
  /** The page's attempt: a second submit of the same form is the same payment. */
  z.object({ intent: z.literal("pay"), attempt: z.string().uuid("Reload the page and try again") }),
  z.object({ intent: z.literal("change") }),
  z.object({ intent: z.literal("cancel"), mailing: z.string().uuid("Reload the page and try again") }),
]);

/**
 * The address each chosen letter goes to, as the member confirmed it on the form: USPS's
 * (standardized) one unless they kept their own. Errors name the letters not confirmed.
 */
export function confirmedAddresses(
  recipients: readonly OrderRecipient[],
  form: FormData,
): { ok: true; letters: { slot: number; address: PostalAddress }[] } | { ok: false; message: string } {
  const letters: { slot: number; address: PostalAddress }[] = [];
  const list = chosen(recipients);
  if (list.length === 0) return { ok: false, message: "Choose at least one respondent to mail the notice to" };
  for (const recipient of list) {
    const why = blocker(recipient);
    if (why) return { ok: false, message: `${recipient.respondent}: ${why}` };
    if (form.get(`confirm.${recipient.slot}`) !== "on")
      return { ok: false, message: `Confirm the address of ${recipient.respondent} before paying.` };
    const verdict = recipient.verdict!;
    const keep = verdict.corrected && form.get(`use.${recipient.slot}`) === "typed";
    letters.push({ slot: recipient.slot, address: keep ? verdict.checked : verdict.standardized! });
  }
  return { ok: true, letters };
}

/** Words for USPS's answer, as the page shows it beside the address. */
export function verdictWords(verdict: Verdict): string {
  switch (verdict.deliverability) {
    case "deliverable":
      return verdict.corrected ? "USPS writes this address differently:" : "USPS can deliver to this address.";
    case "unit_unnecessary":
      return "USPS can deliver here; the unit (Apt, Suite) is not needed.";
    case "unit_incorrect":
      return "USPS can deliver to the building, but the unit given may not exist there.";
    case "unit_missing":
      return "USPS can deliver to the building, but it needs a unit (Apt, Suite) that is not given.";
    case "undeliverable":
      return "USPS cannot deliver to this address.";
  }
}

/** Where a round's last order stands, as the rule below reads it. */
type OrderStatus = "draft" | "paying" | "paid" | "sent";

/**
 * Whether the round can be ordered from the app now, and for whom. At the round's mailing step
 * every respondent the round names; at its proof step, and at its mailing step once an order's
 * letters went out, the respondents still waiting to be served (a letter cancelled, returned or
 * refused, or none sent) in a new order, the earlier letters kept as they are. An order being
 * paid for or sent comes first. `null`: nothing to order now.
 */
export function orderableSlots(input: {
  step: "mailing" | "proof" | "other";
  lastOrder: OrderStatus | null;
  named: readonly number[];
  waiting: readonly number[];
}): { slots: number[]; again: boolean } | null {
  const { step, lastOrder } = input;
  if (step === "other") return null;
  if (lastOrder === "draft") return { slots: [...input.named], again: false };
  if (lastOrder === "paying" || lastOrder === "paid") return null;
  if (step === "mailing" && lastOrder === null) return { slots: [...input.named], again: false };
  const waiting = input.waiting.filter((slot) => input.named.includes(slot));
  return waiting.length > 0 ? { slots: waiting, again: true } : null;
}
