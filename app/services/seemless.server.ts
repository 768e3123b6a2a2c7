import { json } from "@remix-run/node";
import { and, eq, or } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/client.server";
import { nolEntries, users } from "~/db/schema";
import { isFormHash } from "~/domain/forms";
import { FORM_BY_ID } from "~/domain/nol/entries";
import { AccessError, resolveOwner } from "./nol.server";
import type { Viewer } from "./session.server";

export const ENTRY_REQUIRED = "The form entry must be given";

const entryQuerySchema = z.record(z.unknown());

/**
 * /nol/seemless/{form_id}/{form_hash}?entry=…: the embedded form of an entry. The entry
 * (URL-encoded JSON) must be given; the hash names the entry by its view or edit link.
 */
export async function seemlessEntry(
  db: Database,
  viewer: Viewer,
  formIdParam: string | undefined,
  hash: string,
  entryParam: string | null,
) {
  if (!entryParam) throw json(ENTRY_REQUIRED, { status: 400 });
  let entry: Record<string, unknown>;
  try {
    const parsed = entryQuerySchema.safeParse(JSON.parse(entryParam));
    if (!parsed.success) throw new Error("not an object");
    entry = parsed.data;
  } catch {
    throw json("The form entry must be a JSON object", { status: 400 });
  }
  // The form id may be left out (spec §2.2): the hash alone then finds the entry.
  const formId = formIdParam === undefined ? null : Number(formIdParam);
  if (formId !== null && !FORM_BY_ID[formId]) throw json("This page could not be found", { status: 404 });
  // spec §9: a form hash is longer than 30 characters and ends in "*".
  if (hash.length > 200 || !isFormHash(hash)) throw json("This page could not be found", { status: 404 });
  const byHash = or(eq(nolEntries.viewHash, hash), eq(nolEntries.editHash, hash));
  const [row] = await db
    .select({ entry: nolEntries, owner: users.username })
    .from(nolEntries)
    .innerJoin(users, eq(users.id, nolEntries.userId))
    .where(formId === null ? byHash : and(eq(nolEntries.formId, formId), byHash))
    .limit(1);
  if (!row) throw json("This page could not be found", { status: 404 });
  let ownerRow;
  try {
    ownerRow = await resolveOwner(db, viewer, row.owner);
  } catch (error) {
    // Someone else's entry is as good as missing.
    if (error instanceof AccessError) throw json("This page could not be found", { status: 404 });
    throw error;
  }
  return { row: row.entry, owner: row.owner, ownerRow, editable: row.entry.editHash === hash, prefill: entry };
}
