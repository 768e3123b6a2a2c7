import { timingSafeEqual } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { AppServices } from "~/context";
import { causes, nolEntries, pendingSubmissions, users, webhookEvents } from "~/db/schema";
import { FORM_BY_ID } from "~/domain/nol/entries";
import { cognitoEntrySchema, type CognitoEntry } from "~/providers/forms/cognito.server";
import { newFormHash } from "~/providers/forms/builtin.server";
import { causeOpenTo } from "./nol-pages.server";
import { authEntry } from "./nol.server";

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date as YYYY-MM-DD")
  .refine((v) => !Number.isNaN(Date.parse(v)) && new Date(v).toISOString().startsWith(v), "must be a real date");
const dollars = z.number().nonnegative().max(1e12);
const flags = (max: number) => z.array(z.boolean()).max(max).optional();

/** The NoL fields of our Cognito forms, by their internal names. */
const nolFieldsSchema = z.object({
  Username: z.string().min(1).max(32),
  Cause: z.string().min(1).max(40),
  DescriptiveVersion: z.string().trim().min(1).max(120),
  Round: z.number().int().min(1).max(200).optional(),
  NolTracking: z.array(z.boolean()).max(50).optional(),
  NolMailingDate: z.array(z.string().nullable()).max(50).optional(),
  NolProofOfDelivery: z.array(z.boolean()).max(50).optional(),
  TbValue: z.number().int().min(1).max(200).nullish(),
  TbName: z.string().max(60).nullish(),
  BillMailingDate: isoDate.nullish(),
  BillProofOfDelivery: z.boolean().nullish(),
  BillTracking: z.string().max(60).nullish(),
  PreparationDate: isoDate.nullish(),
  PreparationDate1tb: isoDate.nullish(),
  AdministrativeJudgment: dollars.nullish(),
  AdministrativeJudgment1tb: dollars.nullish(),
  EscalationFee: dollars.nullish(),
  TrueBillTotal: dollars.nullish(),
  FirstTrueBillTotal: dollars.nullish(),
  ContinueRespondents: flags(8),
  ContinueExtraRespondentsR2: flags(4),
  ContinueExtraRespondentsR3: flags(4),
  RespStatus: flags(8),
  RespStatus2: flags(4),
  RespStatus3: flags(4),
  Profile: z.record(z.unknown()).nullish(),
  Mail: z.record(z.unknown()).nullish(),
});

export function secretMatches(given: string, expected: string | undefined): boolean {
  if (!expected) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export type WebhookOutcome =
  | { status: 200; body: { entryId: string; duplicate: boolean } }
  | { status: 400 | 409 | 422; body: { error: string; fieldErrors?: unknown } };

const cents = (dollars: number | null | undefined) =>
  dollars === null || dollars === undefined ? null : Math.round(dollars * 100);

/**
 * A Cognito submit or update webhook: the entry becomes (or updates) a member version. Each
 * delivery is stored by entry id and version, so a retried delivery changes nothing.
 */
export async function receiveCognitoEntry(
  services: AppServices,
  event: "submit" | "update",
  payload: unknown,
): Promise<WebhookOutcome> {
  const parsed = cognitoEntrySchema.safeParse(payload);
  if (!parsed.success)
    return {
      status: 400,
      body: { error: "Not a Cognito Forms entry", fieldErrors: parsed.error.flatten().fieldErrors },
    };
  const entry: CognitoEntry = parsed.data;
  const formId = Number(entry.Id.split("-")[0]);
  const form = FORM_BY_ID[formId];
  if (!form) return { status: 422, body: { error: `Form ${formId} is not a NoL form` } };
  const fields = nolFieldsSchema.safeParse(entry);
  if (!fields.success)
    return {
      status: 400,
      body: { error: "The entry lacks NoL fields", fieldErrors: fields.error.flatten().fieldErrors },
    };
  const f = fields.data;
  // A true bill is known by its value: without one it could not be placed among the bills.
  if (form === "NoLBilling" && !f.TbValue) {
    return { status: 400, body: { error: "The entry lacks NoL fields", fieldErrors: { TbValue: ["is required"] } } };
  }

  const [owner] = await services.db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = ${f.Username.toLowerCase()}`);
  if (!owner) return { status: 422, body: { error: "No member has that username" } };
  const [cause] = await services.db.select().from(causes).where(eq(causes.code, f.Cause));
  if (!cause) return { status: 422, body: { error: "Unknown cause code" } };
  // The form was prefilled with the member's auth hash (spec §3 "Auth entry"): a member who
  // edits the Username field cannot file an entry under someone else's name.
  const expected = authEntry(services, owner).hash;
  const given = (entry as { Hash?: unknown }).Hash;
  if (!expected || typeof given !== "string" || !secretMatches(given, expected)) {
    return { status: 422, body: { error: "The entry's auth hash does not match its member" } };
  }
  // The hash names the member, not the cause: a changed Cause field is checked here.
  if (!(await causeOpenTo(services, owner, f.Cause))) {
    return { status: 422, body: { error: "This cause is not open to this member" } };
  }

  return services.db.transaction(async (tx) => {
    // Deliveries of one entry (a submit and a quick update) are handled one after the other.
    await tx.execute(sql`select pg_advisory_xact_lock(727247, hashtext(${entry.Id}))`);
    const [existing] = await tx
      .select({ id: nolEntries.id, userId: nolEntries.userId, data: nolEntries.data })
      .from(nolEntries)
      .where(eq(nolEntries.id, entry.Id));
    // An entry id names one member's entry for good: a delivery for another member, or over
    // an entry the built-in forms made, changes nothing.
    if (existing && (existing.userId !== owner.id || !(existing.data as { Entry?: unknown } | null)?.Entry)) {
      return { status: 409 as const, body: { error: "That entry belongs to another member" } };
    }
    const claimed = await tx
      .insert(webhookEvents)
      .values({ provider: "cognito", eventId: `${entry.Id}:v${entry.Entry.Version}`, type: event, payload: entry })
      .onConflictDoNothing()
      .returning({ id: webhookEvents.id });
    if (claimed.length === 0) return { status: 200 as const, body: { entryId: entry.Id, duplicate: true } };

    const values = {
      form,
      formId,
      entryNumber: entry.Entry.Number,
      userId: owner.id,
      causeCode: f.Cause,
      descriptiveVersion: f.DescriptiveVersion,
      round: f.Round ?? 1,
      editLink: entry.Entry.EditLink ?? null,
      viewLink: entry.Entry.ViewLink ?? null,
      nolTracking: f.NolTracking ?? [],
      nolMailingDate: f.NolMailingDate ?? [],
      nolProofOfDelivery: f.NolProofOfDelivery ?? [],
      tbValue: f.TbValue ?? null,
      tbName: f.TbName ?? null,
      billMailingDate: f.BillMailingDate ?? null,
      billProofOfDelivery: f.BillProofOfDelivery ?? null,
      billTracking: f.BillTracking ?? null,
      preparationDate: f.PreparationDate ?? null,
      preparationDate1tb: f.PreparationDate1tb ?? null,
      administrativeJudgment: cents(f.AdministrativeJudgment),
      administrativeJudgment1tb: cents(f.AdministrativeJudgment1tb),
      escalationFee: cents(f.EscalationFee),
      trueBillTotal: cents(f.TrueBillTotal),
      firstTrueBillTotal: cents(f.FirstTrueBillTotal),
      continueRespondents: f.ContinueRespondents ?? [],
      continueExtraRespondentsR2: f.ContinueExtraRespondentsR2 ?? [],
      continueExtraRespondentsR3: f.ContinueExtraRespondentsR3 ?? [],
      respStatus: f.RespStatus ?? [],
      respStatus2: f.RespStatus2 ?? [],
      respStatus3: f.RespStatus3 ?? [],
      profile: f.Profile ?? null,
      mail: f.Mail ?? null,
      data: entry as Record<string, unknown>,
    };
    const knownVersion = Number((existing?.data as { Entry?: { Version?: number } } | undefined)?.Entry?.Version ?? 0);
    if (!existing) {
      await tx.insert(nolEntries).values({ id: entry.Id, editHash: newFormHash(), viewHash: newFormHash(), ...values });
    } else if (entry.Entry.Version > knownVersion) {
      // An older version delivered late never overwrites a newer one.
      await tx.update(nolEntries).set(values).where(eq(nolEntries.id, entry.Id));
    }
    await tx
      .update(pendingSubmissions)
      .set({ resolvedAt: new Date(), entryId: entry.Id })
      .where(
        and(
          eq(pendingSubmissions.userId, owner.id),
          eq(pendingSubmissions.causeCode, f.Cause),
          eq(pendingSubmissions.descriptiveVersion, f.DescriptiveVersion),
          isNull(pendingSubmissions.resolvedAt),
        ),
      );
    await tx.update(webhookEvents).set({ processedAt: new Date() }).where(eq(webhookEvents.id, claimed[0]!.id));
    return { status: 200 as const, body: { entryId: entry.Id, duplicate: false } };
  });
}
