import { describe, expect, it, vi } from "vitest";
import type { CauseCatalogue } from "../causes";
import {
  createsNewBill,
  escalationFee,
  repeatBillingFlags,
  respondentSlots,
  skipBill,
  slotsOpenIn,
  TOTAL_RESPONDENT_SLOTS,
} from "./billing";
import {
  authHashFor,
  causeByCode,
  causeCodeFromSlug,
  causeEnabled,
  causeOptions,
  countryHasAvailableCause,
  readCauseCatalogue,
} from "./causes";
import { formFromParam, versionSchema } from "./entries";
import { deliveredWords, entryLabel, entryName } from "./labels";
import { autoSelect, canEdit, editorOf, emptySelection, linkHash, selectByHash, unselect } from "./selection";

const catalogue: CauseCatalogue = {
  causes: {
    TS: { label: "Traffic stop", name: "Traffic Stop" },
    CR: { label: "Child removal", name: "Child Removal" },
    MC: { label: "Medical coercion", name: "Medical Coercion" },
  },
  countryCauses: {
    US: { live_causes: ["TS"], testing_causes: ["CR"], beta_causes: ["MC"] },
    NZ: { live_causes: [], testing_causes: ["CR"], beta_causes: [] },
  },
};

describe("cause status per country (spec §4)", () => {
  it.each([
    ["live", { nolCreator: true, nolTester: false }, true, "Available causes are enabled for a creator"],
    ["live", { nolCreator: false, nolTester: true }, true, "…or a tester"],
    ["live", { nolCreator: false, nolTester: false }, false, "…and for no one else"],
    ["testing", { nolCreator: false, nolTester: true }, true, "Testing causes are enabled only for a tester"],
    ["testing", { nolCreator: true, nolTester: false }, false, "…not for a creator"],
    ["beta", { nolCreator: true, nolTester: true }, false, "Started causes are listed but not enabled"],
  ] as const)("%s for %o → %s ('%s')", (status, flags, enabled, _quote) => {
    expect(causeEnabled(status, flags)).toBe(enabled);
  });

  it("lists a country's causes with their status and whether they are enabled", () => {
    expect(causeOptions(catalogue, "US", { nolCreator: true, nolTester: false })).toEqual([
      { code: "TS", label: "Traffic stop", name: "Traffic Stop", slug: "traffic-stop", status: "live", enabled: true },
      {
        code: "CR",
        label: "Child removal",
        name: "Child Removal",
        slug: "child-removal",
        status: "testing",
        enabled: false,
      },
      {
        code: "MC",
        label: "Medical coercion",
        name: "Medical Coercion",
        slug: "medical-coercion",
        status: "beta",
        enabled: false,
      },
    ]);
    expect(causeOptions(catalogue, null, { nolCreator: true, nolTester: true })).toEqual([]);
  });

  it("'A country has a cause available if any of its causes is available'", () => {
    expect(countryHasAvailableCause(catalogue, "US")).toBe(true);
    expect(countryHasAvailableCause(catalogue, "NZ")).toBe(false);
    expect(countryHasAvailableCause(catalogue, "FR")).toBe(false);
  });

  it("'The cause is given as a slug and converted to a cause code'; 'falls back to the raw value'", () => {
    expect(causeCodeFromSlug(catalogue, "child-removal")).toBe("CR");
    expect(causeCodeFromSlug(catalogue, "TS")).toBe("TS");
    expect(causeCodeFromSlug(catalogue, "nothing-like-it")).toBe("nothing-like-it");
  });

  it("'An unknown cause code raises Unknown cause code'", () => {
    expect(causeByCode(catalogue, "TS").slug).toBe("traffic-stop");
    expect(() => causeByCode(catalogue, "ZZ")).toThrow("Unknown cause code");
  });

  it("'A config response without causes logs Missing causes'", () => {
    const log = vi.fn();
    expect(readCauseCatalogue({ countryCauses: {} }, log)).toBeNull();
    expect(log).toHaveBeenCalledWith("Missing causes");
    expect(readCauseCatalogue(catalogue, log)?.causes.TS).toBeDefined();
  });

  it("'If neither flag is set, the auth hash is cleared'", () => {
    expect(authHashFor({ nolCreator: false, nolTester: false }, "h")).toBeNull();
    expect(authHashFor({ nolCreator: true, nolTester: false }, "h")).toBe("h");
    expect(authHashFor({ nolCreator: false, nolTester: true }, "h")).toBe("h");
  });
});

describe("forms (spec §2.2)", () => {
  it("'The form value creator is treated as NoLCreator2'; unknown forms are not forms", () => {
    expect(formFromParam("creator")).toBe("NoLCreator2");
    expect(formFromParam("NoLBilling")).toBe("NoLBilling");
    expect(formFromParam("bogus")).toBeNull();
    expect(formFromParam(undefined)).toBeNull();
  });

  it("'The version text is trimmed'", () => {
    expect(versionSchema.parse("  Spring 2026  ")).toBe("Spring 2026");
    expect(versionSchema.safeParse("   ").success).toBe(false);
  });
});

describe("entry labels (spec §4)", () => {
  it("'Billing profile: Billing Profile, status Active, not read-only, round Setup Billing'", () => {
    expect(entryLabel({ form: "NoLProfileBilling", tb_value: null })).toEqual({
      label: "Billing Profile",
      status: "Active",
      readOnly: false,
      round: "Setup Billing",
    });
  });

  it("'True bill: <Ordinal> True Bill'", () => {
    expect(entryLabel({ form: "NoLBilling", tb_value: 2 })).toMatchObject({
      label: "Second True Bill",
      readOnly: false,
    });
  });

  it("'Otherwise: NoL Creator, read-only'", () => {
    expect(entryLabel({ form: "NoLCreator2", tb_value: null })).toMatchObject({ label: "NoL Creator", readOnly: true });
  });
});

describe("entry names on the pages", () => {
  it.each([
    ["no round made yet", [], "Round 1 Notice of Liability"],
    ["round 1 made", [true], "Round 1 Notice of Liability"],
    ["rounds 1 and 2 made", [true, true], "Round 1 Notice of Liability to Round 2 Notice of Fault"],
    ["all three notices made", [true, true, true], "Round 1 Notice of Liability to Round 3 Default"],
  ])("names the notice creator's entry by its notices, %s, not as 'NoL Creator'", (_what, tracking, name) => {
    expect(entryName({ form: "NoLCreator2", tb_value: null, nol_tracking: tracking })).toBe(name);
  });

  it("keeps the labels of a billing profile and a true bill", () => {
    expect(entryName({ form: "NoLProfileBilling", tb_value: null, nol_tracking: [] })).toBe("Billing Profile");
    expect(entryName({ form: "NoLBilling", tb_value: 2, nol_tracking: [] })).toBe("Second True Bill");
  });

  it("says whether the proof of delivery has come in words, not 'yes'", () => {
    expect(deliveredWords(true)).toBe("Arrived");
    expect(deliveredWords(false)).toBe("Not yet");
  });
});

describe("selection (spec §4)", () => {
  const entries = [
    {
      id: "187-1",
      edit_link: "/nol/seemless/187/abc#edit-hash-one*",
      view_link: "/nol/seemless/187/abc#view-hash-one*",
      descriptive_version: "v1",
      cause: "TS",
    },
    {
      id: "187-2",
      edit_link: "/nol/seemless/187/def#edit-hash-two*",
      view_link: null,
      descriptive_version: "v2",
      cause: "CR",
    },
    {
      id: "187-3",
      edit_link: "/nol/seemless/187/x#same*",
      view_link: "/nol/seemless/187/y#same*",
      descriptive_version: "v3",
      cause: "TS",
    },
    { id: "187-4", edit_link: "/nol/seemless/187/z#same*", view_link: null, descriptive_version: "v4", cause: "TS" },
  ];

  it("'Exactly one match selects it and sets its version and cause' (edit link)", () => {
    expect(selectByHash(entries, "edit-hash-two*", emptySelection)).toMatchObject({
      selectedNolId: "187-2",
      descriptiveVersion: "v2",
      cause: "CR",
    });
  });

  it("'…matching the href hash to an entry's edit or view link' (view link)", () => {
    expect(selectByHash(entries, "view-hash-one*", emptySelection)).toMatchObject({
      selectedNolId: "187-1",
      descriptiveVersion: "v1",
    });
  });

  it("'otherwise the selection clears' (no match, several matches, no hash)", () => {
    const selected = { ...emptySelection, selectedNolId: "187-1" };
    expect(selectByHash(entries, "nothing*", selected).selectedNolId).toBeNull();
    expect(selectByHash(entries, "same*", selected).selectedNolId).toBeNull();
    expect(selectByHash(entries, null, selected).selectedNolId).toBeNull();
  });

  it("'Unselecting resets version, round and editor'", () => {
    const selected = { selectedNolId: "187-1", descriptiveVersion: "v1", cause: "TS", round: 2, editor: "helper" };
    expect(unselect(selected)).toEqual({
      selectedNolId: null,
      descriptiveVersion: null,
      cause: "TS",
      round: null,
      editor: null,
    });
  });

  it("reads the hash of a link", () => {
    expect(linkHash("/a/b#xyz*")).toBe("xyz*");
    expect(linkHash("/nol/seemless/187/hash*")).toBe("hash*");
    expect(linkHash("/nol/seemless/187/hash*?entry=%7B%7D")).toBe("hash*");
    expect(linkHash("/nol/seemless/187/hash%2A?entry=%7B%7D")).toBe("hash*");
    expect(linkHash(null)).toBeNull();
  });

  it.each([
    ["never", ["a", "b"], null, null],
    ["sometimes", ["a"], null, "a"],
    ["sometimes", ["a", "b"], null, null],
    ["always", ["a", "b"], null, "b"],
    ["back", ["a", "b"], "a", "a"],
    ["back", ["a", "b"], "gone", null],
  ] as const)(
    "'Auto-select modes: never, sometimes, always, back': %s over %j (before: %s) → %s",
    (mode, ids, previous, expected) => {
      const list = ids.map((id, i) => ({ id, updated: `2026-01-0${i + 1}T00:00:00Z` }));
      expect(autoSelect(mode, list, previous)).toBe(expected);
    },
  );
});

describe("permissions (spec §6)", () => {
  it("'The edit permission exists only if the selected entry has an edit_link'", () => {
    expect(canEdit({ edit_link: "/nol/seemless/187/h*" })).toBe(true);
    expect(canEdit({ edit_link: null })).toBe(false);
    expect(canEdit(null)).toBe(false);
  });

  it("'The editor can be another user (authEditor), otherwise the signed-in user's entry'", () => {
    expect(editorOf("helper", "member")).toBe("helper");
    expect(editorOf(null, "member")).toBe("member");
  });
});

describe("billing rules (spec §5, §9)", () => {
  it("'Respondent slots: 16 in total (8 in the first round, 4 extra in round 2, 4 extra in round 3)'", () => {
    const slots = respondentSlots();
    expect(slots).toHaveLength(TOTAL_RESPONDENT_SLOTS);
    expect(slots.filter((s) => s.round === 1)).toHaveLength(8);
    expect(slots.filter((s) => s.round === 2).map((s) => s.slot)).toEqual([9, 10, 11, 12]);
    expect(slots.filter((s) => s.round === 3).map((s) => s.slot)).toEqual([13, 14, 15, 16]);
    expect([slotsOpenIn(1), slotsOpenIn(2), slotsOpenIn(3)]).toEqual([8, 12, 16]);
  });

  it.each([
    [{ form: "NoLBilling", selectedEntryId: null, billExistsForVersion: true }, true],
    [{ form: "NoLBilling", selectedEntryId: "194-1", billExistsForVersion: true }, false],
    [{ form: "NoLBilling", selectedEntryId: null, billExistsForVersion: false }, false],
    [{ form: "NoLCreator2", selectedEntryId: null, billExistsForVersion: true }, false],
  ] as const)(
    "'A new bill is created only for the billing form, with no entry selected, when a bill already exists for the version': %o → %s",
    (input, expected) => {
      expect(createsNewBill(input)).toBe(expected);
    },
  );

  it("'Repeat-billing flags for respondents are false when the respondent's continue flag or status is false'", () => {
    expect(repeatBillingFlags([true, true, false, false], [true, false, true, false])).toEqual([
      true,
      false,
      false,
      false,
    ]);
    expect(repeatBillingFlags([true], [])).toEqual([false]);
  });

  it.each([
    ["Joinder", 3, true],
    ["Joinder", 8, true],
    ["Joinder", 7, false],
    ["Joinder", 2, false],
    ["Official", 3, false],
    ["Official", 9, false],
  ] as const)(
    "'Skip-bill applies to Joinder respondents when the true bill value is 3 or above 7': %s, %i → %s",
    (type, tb, expected) => {
      expect(skipBill(type, tb)).toBe(expected);
    },
  );

  it("'The escalation fee is 20% of the prior administrative judgment'", () => {
    expect(escalationFee(1_000_000)).toBe(200_000);
    expect(escalationFee(12_345)).toBe(2_469);
  });
});
