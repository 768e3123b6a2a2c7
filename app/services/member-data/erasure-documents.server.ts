import { and, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import { rowsOf, type Database } from "~/db/client.server";
import { claims, mailingEvents, mailings, notarizations, notices, sandboxObjects } from "~/db/schema";
import { isPdf, pdfWithout } from "./erasure-pdf.server";
import { ERASED_MARK, LOOSE_COLUMNS } from "./erasure-text.server";

/**
 * The documents kept about a member beside their rows (the table in README.md, "Deleting an
 * account"): the built-in mail house's printed letters and the built-in notary's documents go
 * with the member's mailings and notarizations; a PDF or text kept as base64 in any other JSON
 * document of a record not keyed to them is made again without their words. Base64 hides the
 * words from the text search of `rewriteColumn`, and a PDF compresses them besides.
 */

/** The built-in providers' objects of the member's letters and notarizations, read before those rows go. */
export type SandboxDocuments = { letters: string[]; transactions: string[] };

export async function sandboxDocumentsOf(tx: Database, userId: string): Promise<SandboxDocuments> {
  const letters = await tx
    .select({ id: mailings.letterId })
    .from(mailings)
    .where(and(eq(mailings.userId, userId), isNotNull(mailings.letterId)));
  const notarized = await tx
    .select({ id: notarizations.nzId })
    .from(notarizations)
    .innerJoin(notices, eq(notices.id, notarizations.noticeId))
    .innerJoin(claims, eq(claims.id, notices.claimId))
    .where(and(eq(claims.claimantId, userId), isNotNull(notarizations.nzId)));
  return {
    letters: letters.flatMap((l) => l.id ?? []),
    transactions: notarized.flatMap((n) => n.id ?? []),
  };
}

/**
 * Deletes each letter (with its printed PDF, its events and its idempotency record) and each
 * notary transaction (with its documents, events and idempotency record), and the mail house's
 * events of the letters that came before we knew them.
 */
export async function deleteSandboxDocuments(tx: Database, { letters, transactions }: SandboxDocuments) {
  const data = sandboxObjects.data;
  if (letters.length > 0) {
    await tx.delete(mailingEvents).where(inArray(mailingEvents.letterId, letters));
    await tx
      .delete(sandboxObjects)
      .where(
        or(
          inArray(sandboxObjects.id, [...letters, ...letters.map((id) => `${id}.pdf`)]),
          and(eq(sandboxObjects.type, "mail_event"), inArray(sql`${data}->'event'->>'letterId'`, letters)),
          and(eq(sandboxObjects.type, "mail_idempotency"), inArray(sql`${data}->>'letterId'`, letters)),
        ),
      );
  }
  if (transactions.length > 0) {
    await tx
      .delete(sandboxObjects)
      .where(
        or(
          inArray(sandboxObjects.id, [...transactions, ...transactions.map((id) => `${id}.pdf`)]),
          and(eq(sandboxObjects.type, "notary_event"), inArray(sql`${data}->'event'->>'transactionId'`, transactions)),
          and(eq(sandboxObjects.type, "notary_idempotency"), inArray(sql`${data}->>'transactionId'`, transactions)),
        ),
      );
  }
}

/** A base64 run this long may be a document; shorter ones are ids, keys and hashes. */
const BLOB = /^[A-Za-z0-9+/]{64,}={0,2}$/;
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The blob's bytes without the words: a PDF made again, a text rewritten; null when none holds them. */
async function blobWithout(bytes: Uint8Array, words: RegExp): Promise<Uint8Array | null> {
  if (isPdf(bytes)) return pdfWithout(bytes, words);
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return null;
  }
  const cleaned = text.replace(words, ERASED_MARK);
  return cleaned === text ? null : Buffer.from(cleaned, "utf8");
}

/** The JSON value with each base64 blob in it made again without the words; `changed` says whether any was. */
async function jsonWithout(value: unknown, words: RegExp): Promise<{ value: unknown; changed: boolean }> {
  if (typeof value === "string") {
    if (value.length % 4 !== 0 || !BLOB.test(value)) return { value, changed: false };
    const cleaned = await blobWithout(Buffer.from(value, "base64"), words);
    return cleaned ? { value: Buffer.from(cleaned).toString("base64"), changed: true } : { value, changed: false };
  }
  if (!value || typeof value !== "object") return { value, changed: false };
  const entries = Array.isArray(value) ? [...value.entries()] : Object.entries(value);
  let changed = false;
  const made: [string | number, unknown][] = [];
  for (const [key, item] of entries) {
    const next = await jsonWithout(item, words);
    changed ||= next.changed;
    made.push([key, next.value]);
  }
  if (!changed) return { value, changed };
  return { value: Array.isArray(value) ? made.map(([, v]) => v) : Object.fromEntries(made), changed };
}

/**
 * The base64 blobs of the JSON columns of records not keyed to the member (a letter or a notary
 * document of another member, a provider's object), each made again without the member's words.
 * The rows are read one at a time: a sandbox's letters may be many, and large.
 */
export async function rewriteBlobs(tx: Database, words: RegExp) {
  for (const { table, column } of LOOSE_COLUMNS.filter((c) => c.json)) {
    const name = sql.raw(`"${table}"."${column}"`);
    const from = sql.raw(`"${table}"`);
    const found = rowsOf<{ at: string }>(
      await tx.execute(sql`select ctid::text as at from ${from} where ${name}::text ~ '[A-Za-z0-9+/]{64,}'`),
    );
    for (const { at } of found) {
      const [row] = rowsOf<{ value: unknown }>(
        await tx.execute(sql`select ${name} as value from ${from} where ctid = ${at}::tid`),
      );
      const parsed = typeof row?.value === "string" ? (JSON.parse(row.value) as unknown) : row?.value;
      const next = await jsonWithout(parsed, words);
      if (!next.changed) continue;
      await tx.execute(
        sql`update ${from} set ${sql.raw(`"${column}"`)} = ${JSON.stringify(next.value)}::jsonb where ctid = ${at}::tid`,
      );
    }
  }
}
