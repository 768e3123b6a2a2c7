import { describe, expect, it } from "vitest";
import {
  billLines,
  formForStep,
  formListsEntry,
  formOffersStep,
  joinSlotGroups,
  newBillFlags,
  splitBySlotGroup,
  TOTAL_RESPONDENT_SLOTS,
} from "./billing";

const officer = { slot: 1, name: "Officer Example", type: "Official" };
const partner = { slot: 2, name: "Partner Agency", type: "Agency" };
const joinder = { slot: 9, name: "Joined Party", type: "Joinder" };
const all = [joinder, officer, partner];

const flagsWith = (overrides: Record<number, [boolean, boolean]>) => {
  const flags = {
    continue: Array<boolean>(TOTAL_RESPONDENT_SLOTS).fill(true),
    status: Array<boolean>(TOTAL_RESPONDENT_SLOTS).fill(true),
  };
  for (const [slot, [cont, status]] of Object.entries(overrides)) {
    flags.continue[Number(slot) - 1] = cont;
    flags.status[Number(slot) - 1] = status;
  }
  return flags;
};

describe("who a true bill bills (spec §5)", () => {
  it("bills every respondent on the first true bill, in slot order", () => {
    expect(billLines(all, 1, null).map((l) => [l.slot, l.billed])).toEqual([
      [1, true],
      [2, true],
      [9, true],
    ]);
  });

  it("'Repeat-billing flags for respondents are false when the respondent's continue flag or status is false'", () => {
    const prior = flagsWith({ 1: [false, true], 2: [true, false] });
    const lines = billLines(all, 2, prior);
    expect(lines.map((l) => [l.slot, l.billed, l.reason])).toEqual([
      [1, false, "ended"],
      [2, false, "ended"],
      [9, true, null],
    ]);
  });

  it.each([
    [3, false],
    [8, false],
    [4, true],
    [7, true],
  ])(
    "'Skip-bill applies to Joinder respondents when the true bill value is 3 or above 7': bill %i bills them: %s",
    (n, billed) => {
      const line = billLines(all, n, flagsWith({})).find((l) => l.slot === 9)!;
      expect(line.billed).toBe(billed);
      expect(line.reason).toBe(billed ? null : "joinder-skip");
    },
  );
});

describe("the flags a new bill records", () => {
  it("keeps the member's choice for billed respondents, false for ended ones, and the prior flags of a skipped Joinder", () => {
    const prior = flagsWith({ 2: [false, true] });
    const lines = billLines(all, 3, prior);
    const chosen = flagsWith({ 1: [true, false] });
    const flags = newBillFlags(lines, chosen, prior);
    expect([flags.continue[0], flags.status[0]]).toEqual([true, false]);
    expect([flags.continue[1], flags.status[1]]).toEqual([false, false]);
    expect([flags.continue[8], flags.status[8]]).toEqual([true, true]);
    expect(flags.continue[15]).toBe(false);
    // The Joinder respondent comes back on the fourth bill.
    expect(billLines(all, 4, flags).find((l) => l.slot === 9)!.billed).toBe(true);
  });

  it("stores the 16 flags as slots 1–8, the 4 extra of round 2 and the 4 extra of round 3", () => {
    const flat = Array.from({ length: 16 }, (_, i) => i % 3 === 0);
    const groups = splitBySlotGroup(flat);
    expect(groups.map((g) => g.length)).toEqual([8, 4, 4]);
    expect(joinSlotGroups(groups)).toEqual(flat);
    expect(joinSlotGroups([[true], [], []])).toEqual([true, ...Array<boolean>(15).fill(false)]);
  });

  it("reads a flag a prior bill does not hold as true: only a flag that is false stops billing", () => {
    const legacy = { continue: joinSlotGroups([[], [], []], true), status: joinSlotGroups([[false], [], []], true) };
    expect(billLines(all, 2, legacy).map((l) => [l.slot, l.billed])).toEqual([
      [1, false],
      [2, true],
      [9, true],
    ]);
  });
});

describe("what each form's page offers (spec §2.2, §5)", () => {
  const none = { selectedEntryId: null, billExistsForVersion: false };
  const billed = { selectedEntryId: null, billExistsForVersion: true };
  const selected = { selectedEntryId: "194-3", billExistsForVersion: true };
  it.each([
    ["NoLCreator2", "notice", none, true],
    ["NoLCreator2", "true-bill", none, true],
    ["NoLCreator2", "true-bill", billed, false],
    ["NoLCreator2", "true-bill-mailing", billed, true],
    ["NoLProfileBilling", "setup-billing", none, true],
    ["NoLProfileBilling", "notice", none, false],
    ["NoLBilling", "notice", none, false],
    ["NoLBilling", "true-bill", none, true],
    // "A new bill is created only for the billing form, with no entry selected, when a bill already exists for the version."
    ["NoLBilling", "true-bill", billed, true],
    ["NoLBilling", "true-bill", selected, false],
    ["NoLBilling", "true-bill-mailing", selected, true],
  ] as const)("%s offers %s with %o: %s", (form, step, selection, offered) => {
    expect(formOffersStep(form, step, selection)).toBe(offered);
  });

  it("sends a new bill of a billed version to the billing form, everything else to the creator", () => {
    expect(formForStep("true-bill", true)).toBe("NoLBilling");
    expect(formForStep("true-bill", false)).toBe("NoLCreator2");
    expect(formForStep("setup-billing", true)).toBe("NoLCreator2");
  });

  it("lists every entry on the creator and a form's own entries elsewhere", () => {
    expect(formListsEntry("NoLCreator2", "NoLBilling")).toBe(true);
    expect(formListsEntry("NoLBilling", "NoLBilling")).toBe(true);
    expect(formListsEntry("NoLBilling", "NoLCreator2")).toBe(false);
  });
});
