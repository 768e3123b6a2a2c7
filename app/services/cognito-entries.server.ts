import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { LOCK, xactLock } from "~/db/locks";
import { nolEntries, pendingSubmissions, webhookEvents } from "~/db/schema";
import { conflict, DomainError, invalid, notFound } from "~/domain/errors";
import { FORM_IDS } from "~/domain/forms";
import { FORM_BY_ID } from "~/domain/nol/entries";
import { newFormHash } from "~/lib/form-hash.server";
import { secretMatches } from "~/lib/same-secret.server";
import { recordNotices } from "./documents/records.server";
import { receiveHostedSupport } from "./hosted-support.server";
import { keepVersionFeatures } from "./nol/features.server";
import { authEntry, causeOpenTo, memberByUsername, requireCauseCode } from "./nol/access.server";
import { ofVersion } from "./version-keys.server";

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

/**
 * A well-formed delivery this community does not file: a form that is not a NoL form, an
 * unknown member, an auth hash that does not match, a cause closed to the member. Answered
 * 422 so the forms service shows the delivery as refused, not as broken.
 */
class RefusedDelivery extends DomainError {
  constructor(message: string) {
    super("invalid", message);
  }
  override get status(): number {
    return 422;
  }
}

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
): Promise<{ entryId: string; duplicate: boolean }> {
  const { readEntry } = services.providers.forms;
  // Our own forms get no deliveries: the endpoint is not there.
  if (!readEntry) throw notFound("Not found");
  const entry = readEntry(payload);
  const formId = Number(entry.Id.split("-")[0]);
  // The support form is embedded in the footer's modal; its entries join the support list.
  if (formId === FORM_IDS.support) return receiveHostedSupport(services, entry);
  const form = FORM_BY_ID[formId];
  if (!form) throw new RefusedDelivery(`Form ${formId} is not a NoL form`);
  const fields = nolFieldsSchema.safeParse(entry);
  if (!fields.success) throw invalid("The entry lacks NoL fields", fields.error.flatten().fieldErrors);
  const f = fields.data;
  // A true bill is known by its value: without one it could not be placed among the bills.
  if (form === "NoLBilling" && !f.TbValue) throw invalid("The entry lacks NoL fields", { TbValue: ["is required"] });

  const owner = await memberByUsername(services.db, f.Username);
  if (!owner) throw new RefusedDelivery("No member has that username");
  await requireCauseCode(services.db, f.Cause);
  // The form was prefilled with the member's auth hash (spec §3 "Auth entry"): a member who
  // edits the Username field cannot file an entry under someone else's name.
  const expected = authEntry(services, owner).hash;
  const given = entry.Hash;
  if (!expected || typeof given !== "string" || !secretMatches(given, expected)) {
    throw new RefusedDelivery("The entry's auth hash does not match its member");
  }
  // The hash names the member, not the cause: a changed Cause field is checked here.
  if (!(await causeOpenTo(services, owner, f.Cause)))
    throw new RefusedDelivery("This cause is not open to this member");

  return services.db.transaction(async (tx) => {
    // Deliveries of one entry (a submit and a quick update) are handled one after the other.
    await tx.execute(xactLock(LOCK.hostedEntryDelivery, entry.Id));
    const [existing] = await tx
      .select({ id: nolEntries.id, userId: nolEntries.userId, data: nolEntries.data })
      .from(nolEntries)
      .where(eq(nolEntries.id, entry.Id));
    // An entry id names one member's entry for good: a delivery for another member, or over
    // an entry the built-in forms made, changes nothing.
    if (existing && (existing.userId !== owner.id || !(existing.data as { Entry?: unknown } | null)?.Entry)) {
      throw conflict("That entry belongs to another member");
    }
    const claimed = await tx
      .insert(webhookEvents)
      .values({ provider: "cognito", eventId: `${entry.Id}:v${entry.Entry.Version}`, type: event, payload: entry })
      .onConflictDoNothing()
      .returning({ id: webhookEvents.id });
    if (claimed.length === 0) return { entryId: entry.Id, duplicate: true };

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
      await keepVersionFeatures(tx as unknown as Database, {
        userId: owner.id,
        causeCode: f.Cause,
        version: f.DescriptiveVersion,
      });
    } else if (entry.Entry.Version > knownVersion) {
      // An older version delivered late never overwrites a newer one.
      await tx.update(nolEntries).set(values).where(eq(nolEntries.id, entry.Id));
    }
    await recordNotices(tx as unknown as Database, entry.Id);
    await tx
      .update(pendingSubmissions)
      .set({ resolvedAt: new Date(), entryId: entry.Id })
      .where(
        and(
          ofVersion(pendingSubmissions, owner.id, f.Cause, f.DescriptiveVersion),
          isNull(pendingSubmissions.resolvedAt),
        ),
      );
    await tx.update(webhookEvents).set({ processedAt: new Date() }).where(eq(webhookEvents.id, claimed[0]!.id));
    return { entryId: entry.Id, duplicate: false };
  });
}
