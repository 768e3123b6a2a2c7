import type { CauseCatalogue, CauseStatus } from "../causes";
import { causeSlug } from "../causes";

export type CauseFlags = { nolCreator: boolean; nolTester: boolean };

export type CauseOption = {
  code: string;
  label: string;
  name: string;
  slug: string;
  status: CauseStatus;
  enabled: boolean;
};

/**
 * spec §4 "Cause status per country": available (live) causes are enabled for a creator or
 * a tester; testing causes only for a tester; started (beta) causes are listed, not enabled.
 */
export function causeEnabled(status: CauseStatus, flags: CauseFlags): boolean {
  if (status === "live") return flags.nolCreator || flags.nolTester;
  if (status === "testing") return flags.nolTester;
  return false;
}

export function causeOptions(catalogue: CauseCatalogue, country: string | null, flags: CauseFlags): CauseOption[] {
  const lists = country ? catalogue.countryCauses[country] : undefined;
  if (!lists) return [];
  const options: CauseOption[] = [];
  for (const [status, codes] of [
    ["live", lists.live_causes],
    ["testing", lists.testing_causes],
    ["beta", lists.beta_causes],
  ] as const) {
    for (const code of codes) {
      const cause = catalogue.causes[code];
      if (!cause) continue;
      options.push({ code, ...cause, slug: causeSlug(cause.name), status, enabled: causeEnabled(status, flags) });
    }
  }
  return options;
}

/** "A country has a cause available if any of its causes is available." */
export function countryHasAvailableCause(catalogue: CauseCatalogue, country: string): boolean {
  return (catalogue.countryCauses[country]?.live_causes.length ?? 0) > 0;
}

/** "The cause is given as a slug and converted to a cause code." "…falls back to the raw value." */
export function causeCodeFromSlug(catalogue: CauseCatalogue, slug: string): string {
  const found = Object.entries(catalogue.causes).find(([, cause]) => causeSlug(cause.name) === slug);
  return found ? found[0] : slug;
}

export const UNKNOWN_CAUSE = "Unknown cause code";

/** "An unknown cause code raises 'Unknown cause code'." */
export function causeByCode(catalogue: CauseCatalogue, code: string) {
  const cause = catalogue.causes[code];
  if (!cause) throw new Error(UNKNOWN_CAUSE);
  return { code, ...cause, slug: causeSlug(cause.name) };
}

export const MISSING_CAUSES = "Missing causes";

/** "A config response without causes logs 'Missing causes'." */
export function readCauseCatalogue(response: unknown, log: (message: string) => void): CauseCatalogue | null {
  const value = response as Partial<CauseCatalogue> | null;
  if (!value || typeof value !== "object" || !value.causes || typeof value.causes !== "object") {
    log(MISSING_CAUSES);
    return null;
  }
  return { causes: value.causes, countryCauses: value.countryCauses ?? {} };
}

/** "If neither flag is set, the auth hash is cleared." */
export function authHashFor(flags: CauseFlags, hash: string): string | null {
  return flags.nolCreator || flags.nolTester ? hash : null;
}
