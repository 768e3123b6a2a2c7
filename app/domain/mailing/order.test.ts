import { describe, expect, it } from "vitest";
import type { PostalAddress } from "./address";
import {
  blocker,
  confirmedAddresses,
  mailIntentSchema,
  partsFromForm,
  readAddress,
  startingRecipients,
  verdictHolds,
  type OrderRecipient,
} from "./order";

const typed: PostalAddress = {
  name: "Clerk Extra",
  line1: "2 Court Street",
  city: "Springfield",
  state: "IL",
  zip: "62701",
  country: "US",
};
const usps: PostalAddress = { ...typed, line1: "2 CT ST", city: "SPRINGFIELD" };

const parts = (address: PostalAddress) => ({ ...address }) as OrderRecipient["parts"];

function recipient(overrides: Partial<OrderRecipient> = {}): OrderRecipient {
  return {
    slot: 2,
    respondent: "Clerk Extra",
    send: true,
    parts: parts(typed),
    errors: {},
    verdict: { deliverability: "deliverable", standardized: usps, corrected: true, checked: typed },
    ...overrides,
  };
}

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};

describe("a letter's address as the member gives it", () => {
  it("reads a respondent's address kept as one line into its parts", () => {
    const [r] = startingRecipients([
      { slot: 1, name: "Officer Example", address: { Address: "1 Precinct Way, Springfield, IL 62701" } },
    ]);
    expect(r!.parts).toMatchObject({
      name: "Officer Example",
      line1: "1 Precinct Way",
      city: "Springfield",
      state: "IL",
      zip: "62701",
    });
    expect(r!.send).toBe(true);
  });

  it("reads the form's parts under their prefix, always in the US, and names each wrong part", () => {
    const read = partsFromForm(form({ "to.2.name": "Clerk", "to.2.line1": "2 Main", "to.2.zip": "627" }), "to.2");
    expect(read).toEqual({ country: "US", name: "Clerk", line1: "2 Main", zip: "627" });
    const { address, errors } = readAddress(read);
    expect(address).toBeNull();
    expect(errors).toMatchObject({ city: "Enter the city", zip: expect.stringMatching(/ZIP code of 5 or 9 digits/) });
  });
});

describe("what keeps a letter from being paid for", () => {
  it("asks for a check before paying, and again once the address changed", () => {
    expect(blocker(recipient({ verdict: null }))).toBe("Check this address before paying.");
    const changed = recipient({ parts: parts({ ...typed, line1: "4 Court Street" }) });
    expect(verdictHolds(changed)).toBe(false);
    expect(blocker(changed)).toBe("Check this address before paying.");
    expect(blocker(recipient())).toBeNull();
  });

  it("refuses an address USPS cannot deliver to, and one with errors", () => {
    const undeliverable = recipient({
      verdict: { deliverability: "undeliverable", standardized: null, corrected: false, checked: typed },
    });
    expect(blocker(undeliverable)).toMatch(/USPS cannot deliver/);
    expect(blocker(recipient({ errors: { zip: "bad" } }))).toBe("Correct the address, then check it again.");
  });

  it("sends each chosen letter to USPS's address unless the member kept their own, only when confirmed", () => {
    const list = [recipient(), recipient({ slot: 3, respondent: "Left Out", send: false })];
    expect(confirmedAddresses(list, form({}))).toEqual({
      ok: false,
      message: "Confirm the address of Clerk Extra before paying.",
    });
    expect(confirmedAddresses(list, form({ "confirm.2": "on" }))).toEqual({
      ok: true,
      letters: [{ slot: 2, address: usps }],
    });
    expect(confirmedAddresses(list, form({ "confirm.2": "on", "use.2": "typed" }))).toEqual({
      ok: true,
      letters: [{ slot: 2, address: typed }],
    });
    expect(confirmedAddresses([recipient({ send: false })], form({}))).toEqual({
      ok: false,
      message: "Choose at least one respondent to mail the notice to",
    });
  });

  it("reads the page's four forms by their intent, and nothing else", () => {
    expect(mailIntentSchema.safeParse({ intent: "check" }).success).toBe(true);
    expect(mailIntentSchema.safeParse({ intent: "pay", attempt: "x" }).success).toBe(false);
    expect(mailIntentSchema.safeParse({ intent: "cancel", mailing: crypto.randomUUID() }).success).toBe(true);
    expect(mailIntentSchema.safeParse({ intent: "print" }).success).toBe(false);
  });
});
