/** Cause catalogue rules (spec §3 "Cause catalogue", §4 "Cause status per country"). */

export type CauseStatus = "live" | "testing" | "beta";

export type CauseRow = { code: string; label: string; name: string };
export type CountryCauseRow = { countryCode: string; causeCode: string; status: CauseStatus };

export type CountryCauses = {
  live_causes: string[];
  testing_causes: string[];
  beta_causes: string[];
};

export type CauseCatalogue = {
  causes: Record<string, { label: string; name: string }>;
  countryCauses: Record<string, CountryCauses>;
};

/** "A cause slug is the lower-cased cause name with spaces turned into hyphens." */
export function causeSlug(name: string): string {
  return name.toLowerCase().replace(/ /g, "-");
}

const listFor: Record<CauseStatus, keyof CountryCauses> = {
  live: "live_causes",
  testing: "testing_causes",
  beta: "beta_causes",
};

/** Groups the country/cause rows into the shape GET /api/config/causes sends. */
export function buildCauseCatalogue(causeRows: CauseRow[], countryRows: CountryCauseRow[]): CauseCatalogue {
  const causes: CauseCatalogue["causes"] = {};
  for (const row of [...causeRows].sort((a, b) => a.code.localeCompare(b.code))) {
    causes[row.code] = { label: row.label, name: row.name };
  }
  const countryCauses: CauseCatalogue["countryCauses"] = {};
  const sorted = [...countryRows].sort(
    (a, b) => a.countryCode.localeCompare(b.countryCode) || a.causeCode.localeCompare(b.causeCode),
  );
  for (const row of sorted) {
    const lists = (countryCauses[row.countryCode] ??= { live_causes: [], testing_causes: [], beta_causes: [] });
    lists[listFor[row.status]].push(row.causeCode);
  }
  return { causes, countryCauses };
}
