import { and, eq, sql } from "drizzle-orm";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { causes, nolEditors, users } from "~/db/schema";
import type { CauseCatalogue } from "~/domain/causes";
import { forbidden, notFound } from "~/domain/errors";
import {
  authHashFor,
  causeCodeFromSlug,
  causeOptions,
  countryHasAvailableCause,
  UNKNOWN_CAUSE,
} from "~/domain/nol/causes";
import { getCauseCatalogue } from "../causes.server";
import type { UserRow, Viewer } from "../session.server";
import { hmacHex } from "../state-header.server";

/** Whose notices, and which causes: the checks every NoL page and API call starts with. */

type CauseOwner = Pick<UserRow, "countryCode" | "nolCreator" | "nolTester">;

const NO_SUCH_MEMBER = "No such member";

/** A member by username, whatever its case. */
export async function memberByUsername(db: Database, username: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = ${username.toLowerCase()}`)
    .limit(1);
  return row;
}

/**
 * Whose entries a request may touch: the member's own; another member's only for their
 * editor (authEditor) or an admin. A refused member answers the same not-found as an unknown
 * one, so the answer does not tell whether an account exists.
 */
export async function resolveOwner(
  db: Database,
  viewer: Viewer,
  username: string | null | undefined,
): Promise<UserRow> {
  if (!username || username.toLowerCase() === viewer.member.username) return viewer.member;
  const owner = await memberByUsername(db, username);
  if (!owner) throw notFound(NO_SUCH_MEMBER);
  if (viewer.user.admin) return owner;
  const [editor] = await db
    .select()
    .from(nolEditors)
    .where(and(eq(nolEditors.ownerUserId, owner.id), eq(nolEditors.editorUserId, viewer.member.id)));
  if (!editor) throw notFound(NO_SUCH_MEMBER);
  return owner;
}

/** The auth entry of spec §3: who fills the forms; the hash is cleared for non-creators (spec §6). */
export function authEntry(services: AppServices, owner: UserRow) {
  const hash = hmacHex(services.config.stateSecret, `nol-creator:${owner.id}`).slice(0, 40);
  return {
    username: owner.username,
    country: owner.countryCode,
    email: owner.email,
    hash: authHashFor({ nolCreator: owner.nolCreator, nolTester: owner.nolTester }, hash),
  };
}

/** What is open follows the member whose notices they are, also when an editor or admin works on them. */
function choicesIn(catalogue: CauseCatalogue, owner: CauseOwner) {
  return causeOptions(catalogue, owner.countryCode, { nolCreator: owner.nolCreator, nolTester: owner.nolTester });
}

/**
 * The causes the member's country lists, with whether each is open to them, and whether the
 * country has a cause available at all (spec §4).
 */
export async function causeChoices(services: AppServices, owner: CauseOwner) {
  const catalogue = await getCauseCatalogue(services);
  return {
    choices: choicesIn(catalogue, owner),
    anyAvailable: owner.countryCode ? countryHasAvailableCause(catalogue, owner.countryCode) : false,
  };
}

/** The cause of a /nol/{form}/{cause} address: not-found 'Unknown cause code', forbidden when not open to the member. */
export async function requireCause(services: AppServices, owner: CauseOwner, slug: string) {
  const catalogue = await getCauseCatalogue(services);
  const code = causeCodeFromSlug(catalogue, slug);
  if (!catalogue.causes[code]) throw notFound(UNKNOWN_CAUSE);
  const option = choicesIn(catalogue, owner).find((o) => o.code === code);
  if (!option) throw forbidden("This cause is not offered in your country");
  if (!option.enabled)
    throw forbidden(option.status === "beta" ? "This cause is not open yet" : "This cause is not open to you");
  return { ...option, windows: catalogue.windows[code] ?? {} };
}

/** A cause code the API or a webhook names must exist: 'Unknown cause code' is not-found everywhere. */
export async function requireCauseCode(db: Database, code: string): Promise<void> {
  const rows = await db.select({ code: causes.code }).from(causes).where(eq(causes.code, code)).limit(1);
  if (rows.length === 0) throw notFound(UNKNOWN_CAUSE);
}

/** Whether the owner may write notices of this cause code (the API's check; pages use requireCause). */
export async function causeOpenTo(services: AppServices, owner: CauseOwner, code: string): Promise<boolean> {
  const option = choicesIn(await getCauseCatalogue(services), owner).find((o) => o.code === code);
  return option?.enabled ?? false;
}

/** POST /api/creator/auth: the auth entry of the viewer, or of a member whose notices they may edit. */
export async function creatorAuth(services: AppServices, viewer: Viewer, username: string | undefined) {
  return authEntry(services, await resolveOwner(services.db, viewer, username));
}
