import { and, eq, inArray } from "drizzle-orm";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { mailingEvents, mailings, users } from "~/db/schema";
import type { PostalAddress } from "~/domain/mailing/address";
import type { ConfirmedRecipient } from "~/services/mailings/send.server";
import { submitDated } from "./steps";
import { loadViewer, type Viewer } from "~/services/session.server";
import { formOf } from "./requests";
import { signRoundAs } from "./signatures";
import { createSession } from "./users";

/** A round mailed from the app, as the mailings' tests write it: the demo creator's round 1 to two officials. */

export const returnAddress: PostalAddress = {
  name: "Cara Creator",
  line1: "12 Claimant Road",
  city: "Dover",
  state: "DE",
  zip: "19901",
  country: "US",
};

/** The officer's and the clerk's addresses as the mail house verified them, confirmed by the member. */
export const officer: PostalAddress = {
  name: "Officer Example",
  line1: "1 PRECINCT WAY",
  city: "SPRINGFIELD",
  state: "IL",
  zip: "62701",
  country: "US",
};
export const clerk: PostalAddress = { ...officer, name: "Clerk Extra", line1: "2 COURT ST" };

export const bothRespondents: ConfirmedRecipient[] = [
  { slot: 1, address: officer },
  { slot: 2, address: clerk },
];

/** The demo creator, signed in. */
export async function demoCreator(db: Database): Promise<Viewer> {
  const [user] = await db.select().from(users).where(eq(users.username, "creator"));
  return (await loadViewer(db, (await createSession(db, user!.id)).id))!;
}

/** Round 1's notice step as its form sends it: the officer and the clerk, each with an address typed on one line. */
export const ROUND_ONE_FIELDS = {
  claimantName: "Cara Creator",
  dailyAmount: "250",
  r1Name: "Officer Example",
  r1Type: "Official",
  r1Address: "1 Precinct Way, Springfield, IL 62701",
  r2Name: "Clerk Extra",
  r2Type: "Official",
  r2Address: "2 Court Street, Springfield, IL 62701",
};

/** The mail page's addresses form for round 1, as the page sends it: the return address and both respondents', chosen. */
export const MAIL_PAGE_ADDRESSES: Record<string, string> = {
  intent: "check",
  "from.name": "Cara Creator",
  "from.line1": "12 Claimant Road",
  "from.city": "Dover",
  "from.state": "DE",
  "from.zip": "19901",
  "send.1": "on",
  "to.1.name": "Officer Example",
  "to.1.line1": "1 PRECINCT WAY",
  "to.1.city": "SPRINGFIELD",
  "to.1.state": "IL",
  "to.1.zip": "62701",
  "send.2": "on",
  "to.2.name": "Clerk Extra",
  "to.2.line1": "2 Court Street",
  "to.2.city": "Springfield",
  "to.2.state": "IL",
  "to.2.zip": "62701",
};

/**
 * Round 1 of a new Traffic Stop version, written (not mailed) to the officer and the clerk, and
 * signed by the member (its letters are mailed only once it is) unless told otherwise.
 */
export async function writeRoundOne(
  services: AppServices,
  creator: Viewer,
  version: string,
  options: { signed?: boolean } = {},
) {
  await submitDated(services, creator, creator.member, {
    causeCode: "TS",
    version,
    kind: "notice",
    form: formOf(ROUND_ONE_FIELDS),
  });
  if (options.signed ?? true) await signRoundAs(services, creator, version);
}

/** Round 1 of the version, at $9.50 an envelope. */
export const roundOneMailing = (version: string) => ({
  causeCode: "TS",
  version,
  round: 1,
  from: returnAddress,
  prices: { perEnvelopeCents: 950 },
});

/** The version's letters, by slot, each respondent's envelopes in turn. */
export const mailingsOf = (db: Database, userId: string, version: string) =>
  db
    .select()
    .from(mailings)
    .where(and(eq(mailings.userId, userId), eq(mailings.descriptiveVersion, version)))
    .orderBy(mailings.slot, mailings.envelope);

/** The events stored of these letters. */
export const eventsOf = (db: Database, mailingIds: string[]) =>
  db.select().from(mailingEvents).where(inArray(mailingEvents.mailingId, mailingIds));
