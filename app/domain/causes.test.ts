import { describe, expect, it } from "vitest";
import { buildCauseCatalogue, causeSlug } from "./causes";

describe("causeSlug", () => {
  it.each([
    ["Traffic Stop", "traffic-stop"],
    ["Unlawful Property Seizure", "unlawful-property-seizure"],
    ["single", "single"],
  ])("'A cause slug is the lower-cased cause name with spaces turned into hyphens': %s → %s", (name, slug) => {
    expect(causeSlug(name)).toBe(slug);
  });
});

describe("buildCauseCatalogue", () => {
  it("maps codes to label and name, and each country to its live, testing and beta lists", () => {
    const catalogue = buildCauseCatalogue(
      [
        { code: "TS", label: "Traffic stop", name: "Traffic Stop" },
        { code: "PS", label: "Property seizure", name: "Property Seizure" },
      ],
      [
        { countryCode: "US", causeCode: "TS", status: "live" },
        { countryCode: "US", causeCode: "PS", status: "testing" },
        { countryCode: "CA", causeCode: "TS", status: "beta" },
      ],
    );
    expect(catalogue).toEqual({
      causes: {
        PS: { label: "Property seizure", name: "Property Seizure" },
        TS: { label: "Traffic stop", name: "Traffic Stop" },
      },
      countryCauses: {
        CA: { live_causes: [], testing_causes: [], beta_causes: ["TS"] },
        US: { live_causes: ["TS"], testing_causes: ["PS"], beta_causes: [] },
      },
    });
  });

  it("lists a country's causes in code order whatever order the rows come in", () => {
    const { countryCauses } = buildCauseCatalogue(
      [],
      [
        { countryCode: "GB", causeCode: "ZZ", status: "live" },
        { countryCode: "GB", causeCode: "AA", status: "live" },
      ],
    );
    expect(countryCauses.GB?.live_causes).toEqual(["AA", "ZZ"]);
  });
});
