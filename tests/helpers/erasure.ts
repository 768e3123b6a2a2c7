import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { rowsOf } from "~/db/client.server";
import type { AppServices } from "~/context";
import {
  billingCustomers,
  errorReports,
  newsletterSubscriptions,
  payments,
  subscriptions,
  supportRequests,
  webhookEvents,
} from "~/db/schema";
import { audit } from "~/services/audit.server";
import { grantCredits } from "~/services/billing/credits.server";
import { runSandboxMailHouse } from "~/services/mailings/events.server";
import { sendRoundLetters } from "~/services/mailings/send.server";
import { submitDated } from "./steps";
import { notarize } from "~/services/notary/notarize.server";
import { loadViewer } from "~/services/session.server";
import type { TestDatabase } from "./db";
import { readPdf } from "./pdf";
import { formOf } from "./requests";
import { signRoundAs } from "./signatures";
import { createSession, createUser } from "./users";
import { unzip } from "./zip";

/** Every column of every table of the app's and the job queue's schemas that can hold words or a document. */
async function searchedColumns(database: TestDatabase) {
  return rowsOf<{ schema: string; table: string; column: string; type: string }>(
    await database.db
      .execute(`select c.table_schema as schema, c.table_name as table, c.column_name as column, c.data_type as type
      from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where t.table_type = 'BASE TABLE' and c.table_schema not in ('pg_catalog', 'information_schema')
        and c.data_type in ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY', 'USER-DEFINED', 'bytea')`),
  );
}

/** A run of base64 (or base64url) characters long enough to hide a word. */
const BASE64_RUN = /[A-Za-z0-9+/_-]{16,}={0,2}/g;

/**
 * The text a stored document's bytes carry: a PDF's pages (as `readPdf` reads them) and its
 * title, author, subject and keywords; any other bytes read as UTF-8 and as Latin-1.
 */
async function documentText(bytes: Buffer): Promise<string> {
  if (bytes.subarray(0, 5).toString("latin1") === "%PDF-") {
    try {
      const { doc, pages } = await readPdf(bytes);
      const about = [doc.getTitle(), doc.getAuthor(), doc.getSubject(), doc.getKeywords(), doc.getCreator()];
      return [...pages, ...about.filter((v): v is string => !!v)].join("\n");
    } catch {
      // A PDF that cannot be read is searched as its bytes.
    }
  }
  return `${bytes.toString("utf8")}\n${bytes.toString("latin1")}`;
}

/** The texts hidden in a value: each base64 run decoded and read as a document, and what base64 those hide in turn. */
async function hiddenTexts(text: string, depth = 0): Promise<string[]> {
  const found: string[] = [];
  for (const [run] of text.matchAll(BASE64_RUN)) {
    const inner = await documentText(Buffer.from(run, "base64"));
    found.push(inner);
    if (depth < 1) found.push(...(await hiddenTexts(inner, depth + 1)));
  }
  return found;
}

const holds = (texts: string[], words: string[]) =>
  texts.some((text) => words.some((word) => text.toLowerCase().includes(word.toLowerCase())));

/**
 * The columns where any of the words is found (case-blind), as "schema.table.column": in the
 * column's text, and (as "schema.table.column, decoded") in what it hides: every base64 value,
 * in a text or inside a JSON document, decoded, every bytea value, and the text of every PDF
 * either holds.
 */
export async function columnsHolding(database: TestDatabase, words: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const { schema, table, column, type } of await searchedColumns(database)) {
    const name = `"${schema}"."${table}"`;
    if (type !== "bytea") {
      const patterns = words.map((w) => `%${w.toLowerCase()}%`);
      const result = await database.db.execute(
        `select count(*)::int as n from ${name} where lower("${column}"::text) like any (array[${patterns.map((p) => `'${p.replace(/'/g, "''")}'`).join(",")}])`,
      );
      if ((rowsOf<{ n: number }>(result)[0]?.n ?? 0) > 0) found.push(`${schema}.${table}.${column}`);
    }
    const values = rowsOf<{ value: unknown }>(
      await database.db.execute(
        type === "bytea"
          ? `select "${column}" as value from ${name} where "${column}" is not null`
          : `select "${column}"::text as value from ${name} where "${column}"::text ~ '[A-Za-z0-9+/_-]{16,}'`,
      ),
    );
    for (const { value } of values) {
      const texts =
        typeof value === "string"
          ? await hiddenTexts(value)
          : [await documentText(Buffer.from(value as Uint8Array)), ...(await hiddenTexts(String(value)))];
      if (holds(texts, words)) {
        found.push(`${schema}.${table}.${column}, decoded`);
        break;
      }
    }
  }
  return found;
}

/**
 * The files under `dir` (a server's DATA_DIR) where any of the words is found: in the file's
 * text, a PDF's, each file of a ZIP, and what base64 any of them hides.
 */
export async function filesHolding(dir: string, words: string[]): Promise<string[]> {
  const found: string[] = [];
  const files = existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }) : [];
  for (const file of files.filter((f) => f.isFile())) {
    const full = path.join(file.parentPath, file.name);
    const bytes = readFileSync(full);
    const parts = bytes.subarray(0, 4).equals(Buffer.from("PK\x03\x04", "latin1"))
      ? [...unzip(bytes).values()]
      : [bytes];
    const texts: string[] = [];
    for (const part of parts) {
      const text = await documentText(part);
      texts.push(text, ...(await hiddenTexts(text)));
    }
    if (holds(texts, words)) found.push(path.relative(dir, full));
  }
  return found;
}

export type Person = { key: string; name: string; address: string; respondentAddress: string };
export const ZOE: Person = {
  key: "zoe",
  name: "Zoe Quillfeather",
  address: "17 Larkspur Crescent",
  respondentAddress: "400 Tamarind Boulevard Suite 9",
};
export const YVES: Person = {
  key: "yves",
  name: "Yves Marchbanks",
  address: "3 Oriel Mews",
  respondentAddress: "88 Cobbler Wynd",
};

/**
 * A member with a notice to a respondent (and its address), mailed (the mail house keeps the
 * printed letter, the letter's return receipt is kept) and notarized, a payment, a membership
 * and traces elsewhere.
 */
export async function memberWithRecords(
  database: TestDatabase,
  services: AppServices,
  adminId: string,
  person: Person,
) {
  const row = await createUser(database.db, { name: person.name, nolCreator: true, countryCode: "US" });
  const viewer = (await loadViewer(database.db, (await createSession(database.db, row.id)).id))!;
  const version = `${person.key}-2026`;
  const { entryId } = await submitDated(services, viewer, row, {
    causeCode: "TS",
    version,
    kind: "notice",
    form: formOf({
      claimantName: person.name,
      dailyAmount: "250",
      r1Name: "Officer Adams",
      r1Type: "Official",
      r1Address: person.respondentAddress,
    }),
  });
  // The notice mailed from the app (the letter's addresses are kept as JSON) and notarized online.
  const from = {
    name: person.name,
    line1: person.address,
    city: "Dover",
    state: "DE",
    zip: "19901",
    country: "US" as const,
  };
  const to = { ...from, name: "Officer Adams", line1: person.respondentAddress };
  await signRoundAs(services, viewer, version);
  const mailed = await sendRoundLetters(
    services,
    row,
    { causeCode: "TS", version, round: 1, from, prices: { perEnvelopeCents: 950 } },
    [{ slot: 1, address: to }],
  );
  if (mailed[0]?.outcome !== "sent") throw new Error(`the letter was not sent: ${JSON.stringify(mailed)}`);
  const admin = (await loadViewer(database.db, (await createSession(database.db, adminId)).id))!;
  await grantCredits(services, admin, row.id, { count: 1, note: `For ${person.name}` });
  const notarized = await notarize(services, viewer, {
    cf_number: Number(entryId.split("-")[1]),
    cf_version: version,
    round_cnt: 1,
    draft: false,
  });
  if (!("notice" in notarized)) throw new Error(notarized.error);
  await database.db.insert(payments).values({
    userId: row.id,
    kind: "donation",
    amountCents: 2500,
    status: "succeeded",
    provider: "sandbox",
    providerRef: `pi_${person.key}`,
    email: row.email,
    createdAt: new Date("2026-01-15T10:00:00Z"),
  });
  const provider = services.providers.payments;
  const { customerRef } = await provider.createCustomer(
    { email: row.email, name: person.name, userId: row.id },
    randomUUID(),
  );
  await database.db
    .insert(billingCustomers)
    .values({ userId: row.id, email: row.email, provider: "sandbox", providerCustomerId: customerRef });
  const started = await provider.startSubscription({
    customerRef,
    plan: {
      id: "monthly",
      title: "Monthly membership",
      kind: "subscription",
      amountCents: 2000,
      currency: "usd",
      interval: "month",
      providerPriceId: null,
    },
    coupon: null,
    idempotencyKey: randomUUID(),
    metadata: {},
  });
  await database.db.insert(subscriptions).values({
    userId: row.id,
    planId: "monthly",
    status: "ACTIVE",
    provider: "sandbox",
    providerCustomerId: customerRef,
    providerSubscriptionId: started.subscriptionRef,
    amountCents: 2000,
  });
  // Traces not keyed to the member: an admin's search, a provider's event, a request, a mail.
  await audit(database.db, { actorUserId: adminId, agentUserId: null }, "records.export", "users", null, {
    filters: { q: row.email },
  });
  await database.db.insert(webhookEvents).values({
    provider: "stripe",
    eventId: `evt_${person.key}`,
    type: "customer.updated",
    payload: { data: { object: { email: row.email, name: person.name, address: { line1: person.address } } } },
  });
  await database.db.insert(supportRequests).values({ userId: row.id, email: row.email, message: "Help me" });
  await database.db.insert(newsletterSubscriptions).values({ email: row.email, unsubscribeTokenHash: randomUUID() });
  await database.db.insert(errorReports).values({
    userId: row.id,
    time: new Date(),
    href: "/profile",
    message: "boom",
    state: { username: row.username },
  });
  await services.providers.mail.send({ to: row.email, subject: "Hello", text: `Dear ${person.name}`, template: "x" });
  // The letter delivered: the mail house's return receipt (a PDF naming both ends) is kept with it.
  await runSandboxMailHouse(services, new Date(Date.now() + 10 * 86_400_000));
  return row;
}
