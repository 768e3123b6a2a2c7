import { describe, expect, it } from "vitest";
import { EmptyMailing, MAILING_SERVICE, quoteMailing, quoteWords } from "./quote";

describe("the quote for mailing a round", () => {
  it("prices one envelope per respondent at the settings' price, and sums them", () => {
    const quote = quoteMailing({ perEnvelopeCents: 950, currency: "usd" }, ["Officer Reyes", "City of Springfield"]);
    expect(quote).toEqual({
      currency: "usd",
      perEnvelopeCents: 950,
      envelopes: 2,
      totalCents: 1900,
      lines: [
        { recipient: "Officer Reyes", service: MAILING_SERVICE, cents: 950 },
        { recipient: "City of Springfield", service: MAILING_SERVICE, cents: 950 },
      ],
    });
    expect(quoteWords(quote)).toBe("2 envelopes × $9.50 = $19.00");
  });

  it("says one envelope in the singular, and quotes nothing to pay when the community pays", () => {
    expect(quoteWords(quoteMailing({ perEnvelopeCents: 1275, currency: "usd" }, ["Officer Reyes"]))).toBe(
      "1 envelope × $12.75 = $12.75",
    );
    expect(quoteMailing({ perEnvelopeCents: 0, currency: "usd" }, ["A", "B", "C"]).totalCents).toBe(0);
  });

  it("refuses a mailing to no one, and a price that is not whole cents", () => {
    expect(() => quoteMailing({ perEnvelopeCents: 950, currency: "usd" }, [])).toThrow(EmptyMailing);
    expect(() => quoteMailing({ perEnvelopeCents: 9.5, currency: "usd" }, ["A"])).toThrow();
    expect(() => quoteMailing({ perEnvelopeCents: -1, currency: "usd" }, ["A"])).toThrow();
  });
});
