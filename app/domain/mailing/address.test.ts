import { describe, expect, it } from "vitest";
import { postalAddressSchema, postalLines, postalParts, sameAddress, type PostalAddress } from "./address";

const springfield: PostalAddress = {
  name: "Officer Dana Reyes",
  line1: "1 Precinct Way",
  city: "Springfield",
  state: "IL",
  zip: "62701",
  country: "US",
};

describe("a US postal address", () => {
  it("takes a whole address, upper-casing the state and writing a 9-digit ZIP as ZIP+4", () => {
    expect(postalAddressSchema.parse({ ...springfield, line2: " ", state: "il", zip: "627011234" })).toEqual({
      ...springfield,
      line2: undefined,
      zip: "62701-1234",
    });
  });

  it.each([
    ["a state that is no US state", { state: "XX" }, "state"],
    ["a ZIP of 4 digits", { zip: "6270" }, "zip"],
    ["a ZIP of 7 digits", { zip: "6270112" }, "zip"],
    ["another country", { country: "CA" }, "country"],
    ["no street", { line1: "  " }, "line1"],
    ["a name over 40 characters", { name: "N".repeat(41) }, "name"],
    ["street lines over 50 characters in all", { line1: "1".repeat(30), line2: "2".repeat(21) }, "line1"],
  ])("refuses %s", (_what, change, field) => {
    const parsed = postalAddressSchema.safeParse({ ...springfield, ...change });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((issue) => issue.path[0])).toEqual([field]);
  });

  it("writes the address as a window shows it", () => {
    expect(postalLines({ ...springfield, line2: "Suite 5", zip: "62701-1234" })).toEqual([
      "Officer Dana Reyes",
      "1 Precinct Way",
      "Suite 5",
      "Springfield, IL 62701-1234",
    ]);
  });

  it("knows a verified address in capitals, with a ZIP+4, as the one typed", () => {
    const verified = { ...springfield, line1: "1 PRECINCT WAY", city: "SPRINGFIELD", zip: "62701-1702" };
    expect(sameAddress(springfield, verified)).toBe(true);
    expect(sameAddress(springfield, { ...verified, line1: "2 PRECINCT WAY" })).toBe(false);
  });
});

describe("the postal parts of a respondent's address as typed", () => {
  it.each([
    ["one line with commas", "1 Precinct Way, Springfield, IL 62701", { line1: "1 Precinct Way" }],
    ["lines", "1 Precinct Way\nSpringfield IL 62701", { line1: "1 Precinct Way" }],
    ["a country at the end", "1 Precinct Way, Springfield, IL 62701, USA", { line1: "1 Precinct Way" }],
    [
      "a unit typed before the street",
      "Suite 5, 1 Precinct Way, Springfield, IL 62701",
      { line1: "1 Precinct Way", line2: "Suite 5" },
    ],
    ["a state in lower case with a dot", "1 Precinct Way, Springfield, Il. 62701", { line1: "1 Precinct Way" }],
  ])("reads %s whole", (_what, typed, street) => {
    const reading = postalParts("Officer Dana Reyes", typed);
    expect(reading.missing).toEqual([]);
    expect(reading.address).toEqual({ ...springfield, line2: undefined, ...street });
  });

  it("reads a hosted form's parts by name", () => {
    const reading = postalParts("Officer Dana Reyes", {
      street: "1 Precinct Way",
      unit: "Suite 5",
      city: "Springfield",
      state: "il",
      postal_code: "62701",
      country: "United States",
    });
    expect(reading.address).toEqual({ ...springfield, line2: "Suite 5" });
  });

  it.each([
    ["no state or ZIP", "1 Precinct Way, Springfield", ["city", "state", "zip"]],
    ["no ZIP", "1 Precinct Way, Springfield, IL", ["zip"]],
    ["a state that is no US state", "1 Precinct Way, Springfield, ZZ 62701", ["city", "state", "zip"]],
    ["a street ending like a state's code", "12 Oak Ct", ["city", "state", "zip"]],
    ["nothing", "", ["line1", "city", "state", "zip"]],
  ])("names the parts it cannot find: %s", (_what, typed, missing) => {
    const reading = postalParts("Officer Dana Reyes", typed);
    expect(reading.missing).toEqual(missing);
    expect(reading.address).toBeNull();
  });

  it("keeps what it found beside what is missing, for the form to show", () => {
    expect(postalParts(null, "1 Precinct Way, Springfield, IL")).toEqual({
      parts: { line1: "1 Precinct Way", city: "Springfield", state: "IL", country: "US" },
      missing: ["name", "zip"],
      address: null,
    });
  });

  it("names another country in a hosted form's parts as a part to fix", () => {
    const reading = postalParts("Dana", {
      street: "1 Rue",
      city: "Paris",
      state: "IL",
      zip: "75001",
      country: "France",
    });
    expect(reading.missing).toEqual(["country"]);
  });
});
