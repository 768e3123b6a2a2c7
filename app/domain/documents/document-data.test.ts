import { describe, expect, it } from "vitest";
import {
  documentFilename,
  documentKindOf,
  documentTitle,
  documentValues,
  letterValues,
  respondentsOf,
  type DocumentFacts,
} from "./document-data";
import { sampleFacts } from "./samples";
import { roundService, type AppLetter } from "../nol/service";

const respondents = [
  { slot: 9, name: "Joined Party", type: "Joinder" },
  { slot: 1, name: "Officer Example", type: "Official" },
  { slot: 13, name: "Late Party", type: "Individual" },
];

const notice: DocumentFacts = {
  round: 2,
  claimantName: "Cara Creator",
  cause: { code: "TS", name: "Traffic Stop" },
  countryCode: "US",
  version: "Spring 2026",
  exhibit: "TS-000001",
  noticeDate: "2026-03-02T10:00:00Z",
  respondents,
  dailyAmountCents: 25_000,
  mailing: { date: "2026-03-05", tracking: "RR1US", delivered: false },
  bill: null,
};

const bill: DocumentFacts = {
  ...notice,
  round: 5,
  mailing: { date: null, tracking: null, delivered: false },
  bill: { ...sampleFacts({ kind: "true-bill", round: 5, cause: notice.cause }).bill!, billedSlots: [9] },
};

describe("the data a round's document needs", () => {
  it.each([
    [1, "notice", "Notice of Liability"],
    [2, "notice", "Notice of Fault"],
    [3, "notice", "Default"],
    [4, "true-bill", "First True Bill"],
    [6, "true-bill", "Third True Bill"],
  ] as const)(
    "'Rounds 1 to 3 are notice rounds; true bills count from 4': round %i is a %s, %s",
    (round, kind, title) => {
      expect(documentKindOf(round)).toBe(kind);
      expect(documentTitle(round)).toBe(title);
    },
  );

  it("names a notice's respondents of the slots open by its round (spec §9: 8, then 4 extra in round 2 and in round 3)", () => {
    expect(respondentsOf({ ...notice, round: 1 }).map((r) => r.slot)).toEqual([1]);
    expect(respondentsOf(notice).map((r) => r.slot)).toEqual([1, 9]);
    expect(respondentsOf({ ...notice, round: 3 }).map((r) => r.slot)).toEqual([1, 9, 13]);
  });

  it("names the respondents a true bill bills, or all of them when the entry does not say", () => {
    expect(respondentsOf(bill).map((r) => r.slot)).toEqual([9]);
    expect(respondentsOf({ ...bill, bill: { ...bill.bill!, billedSlots: null } }).map((r) => r.slot)).toEqual([
      1, 9, 13,
    ]);
  });

  it("fills a notice round's placeholders from its entry", () => {
    expect(documentValues(notice)).toMatchObject({
      title: "Notice of Fault",
      round: "2",
      round_label: "Round 2",
      prior_rounds: "Round 1",
      "claimant.name": "Cara Creator",
      "cause.name": "Traffic Stop",
      exhibit: "TS-000001",
      notice_date: "Mar 2, 2026",
      respondents: "1. Officer Example (Official)\n9. Joined Party (Joinder)",
      respondent_count: "2",
      daily_amount: "$250.00",
      mailing_date: "Mar 5, 2026",
      tracking_number: "RR1US",
      delivered: "Not yet",
      true_bill_number: null,
      escalation_fee: null,
    });
    expect(documentValues({ ...notice, round: 1 }).prior_rounds).toBe("None");
  });

  it("fills a true bill's amounts, its escalation fee and the rounds before it", () => {
    expect(documentValues(bill)).toMatchObject({
      title: "Second True Bill",
      round_label: "Second True Bill",
      prior_rounds: "Rounds 1 to 3, First True Bill",
      true_bill_number: "2",
      administrative_judgment: "$12,000.00",
      escalation_fee: "$2,000.00",
      true_bill_total: "$14,000.00",
      first_true_bill_total: "$10,000.00",
      first_preparation_date: "Jun 1, 2026",
      respondents: "9. Joined Party (Joinder)",
      mailing_date: null,
    });
    expect(documentValues({ ...bill, round: 4 }).prior_rounds).toBe("Rounds 1 to 3");
    expect(documentValues({ ...bill, round: 6 }).prior_rounds).toBe(
      "Rounds 1 to 3, First True Bill to Second True Bill",
    );
  });

  it("leaves what the entry does not hold empty, and lists no respondents as empty", () => {
    const values = documentValues({ ...notice, exhibit: null, dailyAmountCents: null, respondents: [] });
    expect(values).toMatchObject({ exhibit: null, daily_amount: null, respondents: null, respondent_count: "0" });
  });

  it("lists a proof of service's respondents each with their own envelope, and why one was not served", () => {
    const at = (t: string) => new Date(t);
    const letter = (slot: number, over: Partial<AppLetter>): AppLetter => ({
      id: `m${slot}`,
      letterId: `ltr_${slot}`,
      slot,
      state: "delivered",
      trackingNumber: `9400100000000000000${slot}`,
      mailedAt: at("2026-03-05T15:00:00Z"),
      deliveredAt: at("2026-03-09T15:00:00Z"),
      returnedAt: null,
      reason: null,
      address: "1 Main St, Springfield, IL 62701",
      returnReceipt: true,
      createdAt: at("2026-03-04T10:00:00Z"),
      ...over,
    });
    const served = roundService({
      round: 2,
      addressed: [
        { slot: 1, name: "Officer Example", type: "Official", address: "1 Main St, Springfield" },
        { slot: 2, name: "Cancelled Party", type: "Agency", address: null },
        { slot: 9, name: "Joined Party", type: "Joinder", address: null },
        { slot: 10, name: "Gone Party", type: "Individual", address: null },
      ],
      letters: [
        letter(1, {}),
        letter(2, { state: "cancelled", trackingNumber: "9400100000000000000002", mailedAt: null, deliveredAt: null }),
        letter(10, {
          state: "returned_to_sender",
          deliveredAt: null,
          returnedAt: at("2026-03-12T10:00:00Z"),
          reason: "Moved",
        }),
      ],
      records: [
        {
          id: 1,
          slot: 9,
          kind: "mailed",
          day: "2026-03-06",
          trackingNumber: "RR123456789US",
          reason: null,
          createdAt: at("2026-03-06T10:00:00Z"),
        },
        {
          id: 2,
          slot: 9,
          kind: "delivered",
          day: "2026-03-10",
          trackingNumber: null,
          reason: null,
          createdAt: at("2026-03-10T10:00:00Z"),
        },
        {
          id: 3,
          slot: 10,
          kind: "left_out",
          day: null,
          trackingNumber: null,
          reason: "No known address",
          createdAt: at("2026-03-13T10:00:00Z"),
        },
      ],
      typed: { mailedOn: null, tracking: {}, single: null, delivered: false, deliveredOn: null },
    });
    const values = documentValues({ ...notice, served });
    expect(values.service_list!.split("\n")).toEqual([
      "1. Officer Example (Official)",
      "    Address: 1 Main St, Springfield, IL 62701",
      "    Mailed: Mar 5, 2026 · Tracking number: 94001000000000000001 · Delivered: Mar 9, 2026",
      "    Sent by USPS Certified Mail with an electronic return receipt, which is kept with this round",
      "2. Cancelled Party (Agency)",
      "    Address: 1 Main St, Springfield, IL 62701",
      "    Letter cancelled before it was mailed",
      "    Not served: the letter was cancelled before it was mailed",
      "9. Joined Party (Joinder)",
      "    Address: __________",
      "    Mailed: Mar 6, 2026 (by hand) · Tracking number: RR123456789US · Delivered: Mar 10, 2026",
      "10. Gone Party (Individual)",
      "    Address: 1 Main St, Springfield, IL 62701",
      "    Mailed: Mar 5, 2026 · Tracking number: 940010000000000000010 · Delivered: returned to sender Mar 12, 2026 (Moved)",
      "    Not served in this round: left out (No known address)",
    ]);
    // Respondent 2 waits: the round is not complete, and states no last delivery.
    expect(served.complete).toBe(false);
    expect(values.delivered).toBe("Not yet");
    expect(documentValues(notice).service_list).toBeNull();
  });

  it("names the file in plain ASCII", () => {
    expect(documentFilename(notice)).toBe("ts-spring-2026-round-2.pdf");
    expect(documentFilename({ ...bill, version: "Été / 2026 ✓" })).toBe("ts-ete-2026-second-true-bill.pdf");
  });
});

describe("one letter per respondent", () => {
  const addressed: DocumentFacts = {
    ...notice,
    claimantAddress: "100 Sample Street, Springfield, IL 62701",
    respondents: [
      { slot: 9, name: "Joined Party", type: "Joinder", address: { Address: "9 Court St, Salem, OR 97301" } },
      { slot: 1, name: "Officer Example", type: "Official", address: null },
      { slot: 13, name: "Late Party", type: "Individual", address: "13 Late Lane\nDover, DE 19901" },
    ],
  };
  const LETTER = "@from {{claimant.address}}\n@to {{respondent.name}}\n@to {{respondent.address}}";

  it("makes a letter for each respondent the round names, in slot order, with that respondent's address in lines", () => {
    const letters = letterValues(addressed, LETTER);
    expect(letters.map((v) => [v["respondent.name"], v["respondent.type"], v["respondent.address"]])).toEqual([
      ["Officer Example", "Official", null],
      ["Joined Party", "Joinder", "9 Court St\nSalem, OR 97301"],
    ]);
    // The sender's address is the same in each, in the lines USPS writes.
    expect(new Set(letters.map((v) => v["claimant.address"]))).toEqual(
      new Set(["100 Sample Street\nSpringfield, IL 62701"]),
    );
  });

  it("makes one document of a template that names no respondent of its own, and of a round naming nobody", () => {
    expect(letterValues(addressed, "# {{title}}\n{{respondents}}")).toHaveLength(1);
    const nobody = letterValues({ ...addressed, respondents: [] }, LETTER);
    expect(nobody).toHaveLength(1);
    expect(nobody[0]!["respondent.name"]).toBeNull();
  });

  it("leaves the claimant's address blank when the notice step did not take one", () => {
    expect(documentValues(notice)["claimant.address"]).toBeNull();
  });
});
