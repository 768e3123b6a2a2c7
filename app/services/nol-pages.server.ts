import { json } from "@remix-run/node";
import type { AppServices } from "~/context";
import { getCauseCatalogue } from "./causes.server";
import type { CauseCatalogue } from "~/domain/causes";
import { causeCodeFromSlug, causeOptions, countryHasAvailableCause, UNKNOWN_CAUSE } from "~/domain/nol/causes";
import type { UserRow } from "./session.server";

type CauseOwner = Pick<UserRow, "countryCode" | "nolCreator" | "nolTester">;

/** What is open follows the member whose notices they are, also when an editor or admin works on them. */
function choicesIn(catalogue: CauseCatalogue, owner: CauseOwner) {
  return causeOptions(catalogue, owner.countryCode, { nolCreator: owner.nolCreator, nolTester: owner.nolTester });
}

/**
 * The causes the member's country lists, with whether each is open to them, and whether the
 * country has a cause available at all (spec §4).
 */
export async function causeChoices(services: AppServices, owner: CauseOwner) {
  const catalogue = await getCauseCatalogue(services.db);
  return {
    choices: choicesIn(catalogue, owner),
    anyAvailable: owner.countryCode ? countryHasAvailableCause(catalogue, owner.countryCode) : false,
  };
}

/** The cause of a /nol/{form}/{cause} address: 404 'Unknown cause code', 403 when not open to the member. */
export async function requireCause(services: AppServices, owner: CauseOwner, slug: string) {
  const catalogue = await getCauseCatalogue(services.db);
  const code = causeCodeFromSlug(catalogue, slug);
  const cause = catalogue.causes[code];
  if (!cause) throw json(UNKNOWN_CAUSE, { status: 404 });
  const option = choicesIn(catalogue, owner).find((o) => o.code === code);
  if (!option) throw json("This cause is not offered in your country", { status: 403 });
  if (!option.enabled)
    throw json(option.status === "beta" ? "This cause is not open yet" : "This cause is not open to you", {
      status: 403,
    });
  return option;
}

/** Whether the owner may write notices of this cause code (the API's check; pages use requireCause). */
export async function causeOpenTo(services: AppServices, owner: CauseOwner, code: string): Promise<boolean> {
  const option = choicesIn(await getCauseCatalogue(services.db), owner).find((o) => o.code === code);
  return option?.enabled ?? false;
}
