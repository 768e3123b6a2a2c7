import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { nolEditors, nolEntries, pendingSubmissions, respondents, users } from "~/db/schema";
import { COMPANY_TAG, ENTRY_TYPE, formTimezone } from "~/domain/forms";
import {
  billLines,
  escalationFee,
  joinSlotGroups,
  newBillFlags,
  RESPONDENT_TYPES,
  slotsOpenIn,
  splitBySlotGroup,
  TOTAL_RESPONDENT_SLOTS,
  type BillFlags,
  type BillLine,
} from "~/domain/nol/billing";
import { authHashFor } from "~/domain/nol/causes";
import { FORM_ID, type EntryFacts, type NolForm } from "~/domain/nol/entries";
import { trueBillName } from "~/domain/nol/rounds";
import { nextStep, type Step, type StepKind } from "~/domain/nol/steps";
import { newFormHash } from "~/providers/forms/builtin.server";
import { seamlessEmbed } from "~/providers/forms/cognito.server";
import { actorOf } from "./accounts.server";
import { audit } from "./audit.server";
import type { UserRow, Viewer } from "./session.server";
import { hmacHex } from "./state-header.server";

type EntryRow = typeof nolEntries.$inferSelect;

export class AccessError extends Error {
  constructor(
    readonly status: 403 | 404,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Whose entries a request may touch: the member's own; another member's only for their
 * editor (authEditor) or an admin. An unknown member is a 404, a refused one a 403.
 */
export async function resolveOwner(
  db: Database,
  viewer: Viewer,
  username: string | null | undefined,
): Promise<UserRow> {
  if (!username || username.toLowerCase() === viewer.member.username) return viewer.member;
  const [owner] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = ${username.toLowerCase()}`)
    .limit(1);
  if (!owner) throw new AccessError(404, "No such member");
  if (viewer.user.admin) return owner;
  const [editor] = await db
    .select()
    .from(nolEditors)
    .where(and(eq(nolEditors.ownerUserId, owner.id), eq(nolEditors.editorUserId, viewer.member.id)));
  if (!editor) throw new AccessError(403, "You may not see this member's notices");
  return owner;
}

/** The embedded-form address of an entry: its hash, and the entry named in the `entry` query (spec §2.2). */
export function seemlessLink(row: Pick<EntryRow, "formId" | "id">, hash: string): string {
  // "*" is escaped: routers read a bare one in a path as a wildcard.
  const segment = encodeURIComponent(hash).replace(/\*/g, "%2A");
  return `/nol/seemless/${row.formId}/${segment}?entry=${encodeURIComponent(JSON.stringify({ EntryId: row.id }))}`;
}

/** A member version as the API sends it (spec §3 "NoL entry"). */
export function entryJson(row: EntryRow, username: string) {
  const link = (hash: string) => seemlessLink(row, hash);
  return {
    id: row.id,
    form: row.form,
    username,
    cause: row.causeCode,
    descriptive_version: row.descriptiveVersion,
    updated: row.updatedAt.toISOString(),
    round: row.round,
    edit_link: row.editLink ?? link(row.editHash),
    view_link: row.viewLink ?? link(row.viewHash),
    nol_tracking: row.nolTracking,
    nol_mailing_date: row.nolMailingDate,
    nol_proof_of_delivery: row.nolProofOfDelivery,
    continue_respondents: row.continueRespondents,
    continue_extra_respondents_r2: row.continueExtraRespondentsR2,
    continue_extra_respondents_r3: row.continueExtraRespondentsR3,
    resp_status: row.respStatus,
    resp_status2: row.respStatus2,
    resp_status3: row.respStatus3,
    tb_value: row.tbValue,
    tb_name: row.tbName,
    bill_mailing_date: row.billMailingDate,
    bill_proof_of_delivery: row.billProofOfDelivery,
    bill_tracking: row.billTracking,
    preparation_date: row.preparationDate,
    preparation_date_1tb: row.preparationDate1tb,
    administrative_judgment: row.administrativeJudgment,
    administrative_judgment_1tb: row.administrativeJudgment1tb,
    escalation_fee: row.escalationFee,
    true_bill_total: row.trueBillTotal,
    first_true_bill_total: row.firstTrueBillTotal,
    profile: row.profile ?? null,
    mail: row.mail ?? null,
    [row.editHash]: true,
  };
}
export type NolEntryJson = ReturnType<typeof entryJson>;

/** Whether an entry id names one of the owner's entries. */
export async function ownsEntry(db: Database, ownerId: string, entryId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: nolEntries.id })
    .from(nolEntries)
    .where(and(eq(nolEntries.id, entryId), eq(nolEntries.userId, ownerId)));
  return row !== undefined;
}

export async function entriesOf(db: Database, ownerId: string, causeCode?: string | null) {
  return db
    .select()
    .from(nolEntries)
    .where(
      causeCode
        ? and(eq(nolEntries.userId, ownerId), eq(nolEntries.causeCode, causeCode))
        : eq(nolEntries.userId, ownerId),
    )
    .orderBy(
      asc(nolEntries.descriptiveVersion),
      asc(nolEntries.formId),
      asc(nolEntries.tbValue),
      asc(nolEntries.createdAt),
    );
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

/** GET /api/entry/nol-member-versions: list, pending, nolFeatures, userAuthInfo. */
export async function memberVersions(
  services: AppServices,
  owner: UserRow,
  query: { cause: string | null; id: string | null },
) {
  const rows = (await entriesOf(services.db, owner.id, query.cause)).filter((r) => !query.id || r.id === query.id);
  const pending = await services.db
    .select()
    .from(pendingSubmissions)
    .where(
      and(
        eq(pendingSubmissions.userId, owner.id),
        isNull(pendingSubmissions.resolvedAt),
        query.cause ? eq(pendingSubmissions.causeCode, query.cause) : undefined,
      ),
    )
    .orderBy(desc(pendingSubmissions.createdAt));
  const versions = new Map<string, { CauseCode: string; DescriptiveVersion: string; AllowNotarizeOnline: boolean }>();
  for (const row of rows) {
    versions.set(`${row.causeCode}\0${row.descriptiveVersion}`, {
      CauseCode: row.causeCode,
      DescriptiveVersion: row.descriptiveVersion,
      AllowNotarizeOnline: true,
    });
  }
  return {
    list: rows.map((r) => entryJson(r, owner.username)),
    pending: pending.map((p) => ({
      username: p.username,
      cause: p.causeCode,
      descriptive_version: p.descriptiveVersion,
      prior_rows: p.priorRows,
      entry_id: p.entryId,
      prior_updated: p.priorUpdated?.toISOString() ?? null,
    })),
    nolFeatures: [...versions.values()],
    userAuthInfo: authEntry(services, owner),
  };
}

/** GET /api/entry/nol-editors: who may edit the member's notices, and whose the member may edit. */
export async function editorsOf(db: Database, memberId: string) {
  const editors = await db
    .select({ username: users.username, email: users.email })
    .from(nolEditors)
    .innerJoin(users, eq(users.id, nolEditors.editorUserId))
    .where(eq(nolEditors.ownerUserId, memberId))
    .orderBy(users.username);
  const editing = await db
    .select({ username: users.username, email: users.email })
    .from(nolEditors)
    .innerJoin(users, eq(users.id, nolEditors.ownerUserId))
    .where(eq(nolEditors.editorUserId, memberId))
    .orderBy(users.username);
  return { editors, editing };
}

export async function addEditor(
  services: AppServices,
  viewer: Viewer,
  username: string,
): Promise<{ ok: true } | { ok: false; message: string }> {
  const [editor] = await services.db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = ${username.toLowerCase()}`);
  if (!editor || editor.disabledAt) return { ok: false, message: "No member has that username" };
  if (editor.id === viewer.member.id) return { ok: false, message: "You already edit your own notices" };
  await services.db
    .insert(nolEditors)
    .values({ ownerUserId: viewer.member.id, editorUserId: editor.id })
    .onConflictDoNothing();
  await audit(services.db, actorOf(viewer), "nol.editor.add", "user", editor.id);
  return { ok: true };
}

export async function removeEditor(services: AppServices, viewer: Viewer, username: string): Promise<void> {
  const [editor] = await services.db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = ${username.toLowerCase()}`);
  if (!editor) return;
  await services.db
    .delete(nolEditors)
    .where(and(eq(nolEditors.ownerUserId, viewer.member.id), eq(nolEditors.editorUserId, editor.id)));
  await audit(services.db, actorOf(viewer), "nol.editor.remove", "user", editor.id);
}

export const pendingBodySchema = z.object({
  username: z.string().min(1).max(32),
  cause: z.string().min(1).max(40),
  descriptive_version: z.string().trim().min(1).max(120),
  prior_rows: z.number().int().min(0).max(10_000),
  entry_id: z.string().max(40).nullable().optional(),
  prior_updated: z.string().datetime({ offset: true }).nullable().optional(),
});

/** POST /api/entry/cognito-submitted: the form was sent; the entry is on its way. */
export async function recordPending(
  services: AppServices,
  viewer: Viewer,
  owner: UserRow,
  body: z.infer<typeof pendingBodySchema>,
) {
  const [row] = await services.db
    .insert(pendingSubmissions)
    .values({
      userId: owner.id,
      username: owner.username,
      causeCode: body.cause,
      descriptiveVersion: body.descriptive_version,
      priorRows: body.prior_rows,
      entryId: body.entry_id ?? null,
      priorUpdated: body.prior_updated ? new Date(body.prior_updated) : null,
    })
    .returning();
  await audit(services.db, actorOf(viewer), "nol.submitted", "pending_submission", row!.id);
  return row!;
}

export function facts(row: EntryRow): EntryFacts {
  return {
    id: row.id,
    form: row.form,
    cause: row.causeCode,
    descriptive_version: row.descriptiveVersion,
    updated: row.updatedAt.toISOString(),
    edit_link: row.editLink ?? seemlessLink(row, row.editHash),
    view_link: row.viewLink ?? seemlessLink(row, row.viewHash),
    nol_tracking: row.nolTracking,
    nol_mailing_date: row.nolMailingDate,
    nol_proof_of_delivery: row.nolProofOfDelivery,
    tb_value: row.tbValue,
    bill_mailing_date: row.billMailingDate,
    bill_proof_of_delivery: row.billProofOfDelivery,
  };
}

export type VersionState = {
  version: string;
  creator: EntryRow | null;
  billingProfile: EntryRow | null;
  bills: EntryRow[];
  step: Step;
};

/** A version's entries and its next step. */
export function versionState(rows: EntryRow[], version: string): VersionState {
  const mine = rows.filter((r) => r.descriptiveVersion === version);
  const creator = mine.find((r) => r.form === "NoLCreator2") ?? null;
  const billingProfile = mine.find((r) => r.form === "NoLProfileBilling") ?? null;
  const bills = mine.filter((r) => r.form === "NoLBilling").sort((a, b) => (a.tbValue ?? 0) - (b.tbValue ?? 0));
  const latest = bills.at(-1) ?? null;
  const step = nextStep({
    creator: creator ? facts(creator) : null,
    hasBillingProfile: billingProfile !== null,
    trueBill: latest ? facts(latest) : null,
  });
  return { version, creator, billingProfile, bills, step };
}

/** The continue and status flags a bill recorded, as one list per slot. */
function billFlagsOf(bill: EntryRow | undefined): BillFlags | null {
  if (!bill) return null;
  return {
    continue: joinSlotGroups(
      [bill.continueRespondents, bill.continueExtraRespondentsR2, bill.continueExtraRespondentsR3],
      true,
    ),
    status: joinSlotGroups([bill.respStatus, bill.respStatus2, bill.respStatus3], true),
  };
}

/** Who the version's next true bill bills, from its respondents and the prior bill (spec §5). */
export async function nextBillLines(db: Database, state: VersionState): Promise<BillLine[]> {
  if (state.step.kind !== "true-bill" || !state.creator) return [];
  const named = await respondentsOf(db, [state.creator.id]);
  return billLines(
    named.map((r) => ({ slot: r.slot, name: r.name, type: r.type })),
    (state.step.round ?? 4) - 3,
    billFlagsOf(state.bills.at(-1)),
  );
}

/**
 * With Cognito Forms (FORMS=cognito) a step is filled in the hosted form of its form id.
 * A step that makes an entry (Round 1, Setup Billing, a new true bill) opens the form in
 * its seamless embed, prefilled like the seamless page; a step that records progress on an
 * existing entry opens that entry through its own edit link, so the hosted entry is updated
 * rather than a second one made.
 */
export function hostedStep(
  services: AppServices,
  owner: UserRow,
  causeCode: string,
  state: VersionState,
  priorRows: number,
) {
  const { config } = services;
  if (config.forms !== "cognito" || !config.cognitoEmbedKey) return null;
  const { step } = state;
  const billing = step.kind.startsWith("true-bill");
  const creates =
    (step.kind === "notice" && !state.creator) || step.kind === "setup-billing" || step.kind === "true-bill";
  if (!creates) {
    const existing = billing ? (state.bills.at(-1) ?? null) : state.creator;
    return { kind: "edit" as const, editLink: existing?.editLink ?? null };
  }
  const form: NolForm = step.kind === "setup-billing" ? "NoLProfileBilling" : billing ? "NoLBilling" : "NoLCreator2";
  const prefill: Record<string, unknown> = {
    Username: owner.username,
    Cause: causeCode,
    DescriptiveVersion: state.version,
    EntryType: ENTRY_TYPE,
    Company: COMPANY_TAG,
    Hash: authEntry(services, owner).hash,
    Round: step.round ?? null,
  };
  if (step.kind === "true-bill") prefill.TbValue = (step.round ?? 4) - 3;
  return {
    kind: "embed" as const,
    embed: seamlessEmbed({ apiUrl: config.cognitoApiUrl, embedKey: config.cognitoEmbedKey }, FORM_ID[form], prefill),
    pending: {
      username: owner.username,
      cause: causeCode,
      descriptive_version: state.version,
      prior_rows: priorRows,
      entry_id: null,
      prior_updated: null,
    },
  };
}

export function versionsOf(rows: EntryRow[]): string[] {
  return [...new Set(rows.map((r) => r.descriptiveVersion))];
}

const money = z
  .string()
  .trim()
  .regex(/^\d{1,9}(\.\d{1,2})?$/, "Enter an amount such as 250 or 250.00")
  .transform((v) => Math.round(Number(v) * 100));
const isoDate = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Enter a date as YYYY-MM-DD")
  .refine((v) => !Number.isNaN(Date.parse(v)) && new Date(v).toISOString().startsWith(v), "Enter a real date");
const respondentName = z.string().trim().max(120, "Use at most 120 characters");

function respondentFields(round: number) {
  const fields: Record<string, z.ZodTypeAny> = {};
  for (let slot = 1; slot <= slotsOpenIn(round); slot += 1) {
    fields[`r${slot}Name`] = respondentName.optional();
    fields[`r${slot}Type`] = z.enum(RESPONDENT_TYPES).optional();
  }
  return fields;
}

export function stepSchema(step: Step) {
  switch (step.kind) {
    case "notice":
      return z
        .object({
          claimantName: z.string().trim().min(1, "Enter the claimant's name").max(120),
          dailyAmount: money,
          ...respondentFields(step.round ?? 1),
        })
        .superRefine((v, ctx) => {
          // Later rounds keep the respondents named before; round 1 must name one.
          if ((step.round ?? 1) > 1) return;
          const named = Object.entries(v).filter(([k, value]) => /^r\d+Name$/.test(k) && value);
          if (named.length === 0)
            ctx.addIssue({ code: "custom", path: ["r1Name"], message: "Name at least one respondent" });
        });
    case "mailing":
    case "true-bill-mailing":
      return z.object({
        mailingDate: isoDate,
        trackingNumber: z.string().trim().min(4, "Enter the tracking number").max(60),
      });
    case "proof":
    case "true-bill-proof":
      return z.object({
        delivered: z.literal("on", { errorMap: () => ({ message: "Confirm that the proof of delivery arrived" }) }),
      });
    case "setup-billing":
      return z.object({ dailyAmount: money });
    case "true-bill":
      return z.object({ preparationDate: isoDate, administrativeJudgment: money });
  }
}

/** The step kinds, as they appear in /nol/{form}/{cause}/{step}. */
export const STEP_KINDS: StepKind[] = [
  "notice",
  "mailing",
  "proof",
  "setup-billing",
  "true-bill",
  "true-bill-mailing",
  "true-bill-proof",
];

async function nextEntryNumber(db: Database, formId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`coalesce(max(${nolEntries.entryNumber}), 0)` })
    .from(nolEntries)
    .where(eq(nolEntries.formId, formId));
  return Number(row?.n ?? 0) + 1;
}

function setAt<T>(list: T[], index: number, value: T, fill: T): T[] {
  const copy = [...list];
  while (copy.length < index) copy.push(fill);
  copy[index] = value;
  return copy;
}

/** What every submission carries (spec §9): the entry type, the fixed company tag, the form timezone. */
/** The fixed entry type and company tag, and the member's timezone when it is a real one. */
function formMeta(form: FormData) {
  return { EntryType: ENTRY_TYPE, Company: COMPANY_TAG, Timezone: formTimezone(form.get("timezone")) };
}

export type StepResult =
  | { ok: true; entryId: string }
  | { ok: false; status: 400 | 409; fieldErrors: Record<string, string[]>; message?: string };

/**
 * Saves one step through the built-in forms: like a hosted form it adds a pending record
 * first, then stores the entry and marks the submission done.
 */
/** Another submit of the same version got there first. */
class StepConflict extends Error {}

export async function submitStep(
  services: AppServices,
  viewer: Viewer,
  owner: UserRow,
  input: { causeCode: string; version: string; kind: StepKind; form: FormData },
): Promise<StepResult> {
  const rows = await entriesOf(services.db, owner.id, input.causeCode);
  const seen = versionState(rows, input.version);
  const conflict = (label: string): StepResult => ({
    ok: false,
    status: 409,
    fieldErrors: {},
    message: `The next step of this version is ${label}.`,
  });
  if (seen.step.kind !== input.kind) return conflict(seen.step.label);
  const parsed = stepSchema(seen.step).safeParse(Object.fromEntries(input.form));
  if (!parsed.success)
    return { ok: false, status: 400, fieldErrors: parsed.error.flatten().fieldErrors as Record<string, string[]> };
  const data = parsed.data as Record<string, unknown>;
  const pending = await recordPending(services, viewer, owner, {
    username: owner.username,
    cause: input.causeCode,
    descriptive_version: input.version,
    prior_rows: rows.length,
    entry_id: seen.creator?.id ?? null,
    prior_updated: seen.creator?.updatedAt.toISOString() ?? null,
  });

  let entryId: string;
  try {
    entryId = await services.db.transaction(async (tx) => {
      const db = tx as unknown as Database;
      // One step of one version at a time: a second submit of the same step (a double click,
      // a retry) waits here, then finds the step already done and gets a 409.
      const lockKey = `${owner.id}|${input.causeCode}|${input.version}`;
      await tx.execute(sql`select pg_advisory_xact_lock(727246, hashtext(${lockKey}))`);
      const state = versionState(await entriesOf(db, owner.id, input.causeCode), input.version);
      if (state.step.kind !== seen.step.kind || state.step.round !== seen.step.round) {
        throw new StepConflict(state.step.label);
      }
      const create = async (form: NolForm, values: Partial<typeof nolEntries.$inferInsert>) => {
        const formId = FORM_ID[form];
        await tx.execute(sql`select pg_advisory_xact_lock(727245, ${formId}::int)`);
        const entryNumber = await nextEntryNumber(db, formId);
        const [row] = await tx
          .insert(nolEntries)
          .values({
            id: `${formId}-${entryNumber}`,
            form,
            formId,
            entryNumber,
            userId: owner.id,
            causeCode: input.causeCode,
            descriptiveVersion: input.version,
            editHash: newFormHash(),
            viewHash: newFormHash(),
            ...values,
          })
          .returning();
        return row!;
      };
      const step = state.step;
      const r = (step.round ?? 1) - 1;
      switch (step.kind) {
        case "notice": {
          const creator =
            state.creator ?? (await create("NoLCreator2", { data: { claimantName: data.claimantName }, profile: {} }));
          // A slot left blank keeps the respondent named in an earlier round; a name given
          // without a type keeps the type it had.
          const stored = new Map(
            (await respondentsOf(db, [creator.id])).map((x) => [x.slot, { slot: x.slot, type: x.type }]),
          );
          const respondentRows: { entryId: string; slot: number; name: string; type: string }[] = [];
          for (let slot = 1; slot <= slotsOpenIn(step.round!); slot += 1) {
            const name = data[`r${slot}Name`] as string | undefined;
            if (name)
              respondentRows.push({
                entryId: creator.id,
                slot,
                name,
                type: (data[`r${slot}Type`] as string | undefined) ?? stored.get(slot)?.type ?? "Individual",
              });
          }
          for (const row of respondentRows) {
            await tx
              .insert(respondents)
              .values(row)
              .onConflictDoUpdate({
                target: [respondents.entryId, respondents.slot],
                set: { name: row.name, type: row.type },
              });
            stored.set(row.slot, { slot: row.slot, type: row.type });
          }
          const count = (first: number, last: number) =>
            [...stored.keys()].filter((slot) => slot >= first && slot <= last).length;
          const profile = { ...(creator.profile ?? {}), DailyAmount: (data.dailyAmount as number) / 100 } as Record<
            string,
            unknown
          >;
          if (step.round === 1) profile.TotalRespondents = count(1, 8);
          if (step.round === 2) profile.TotalExtraRespondentsR2 = count(9, 12);
          if (step.round === 3) profile.TotalExtraRespondentsR3 = count(13, 16);
          // spec §3: the profile names the type of each extra respondent (R9..R16RespondentType).
          for (let slot = 9; slot <= 16; slot += 1) {
            const respondent = stored.get(slot);
            if (respondent) profile[`R${slot}RespondentType`] = respondent.type;
          }
          await tx
            .update(nolEntries)
            .set({
              round: step.round!,
              nolTracking: setAt(creator.nolTracking, r, true, false),
              profile,
              data: { ...creator.data, claimantName: data.claimantName, ...formMeta(input.form) },
            })
            .where(eq(nolEntries.id, creator.id));
          return creator.id;
        }
        case "mailing":
        case "proof": {
          const creator = state.creator!;
          const set =
            step.kind === "mailing"
              ? {
                  nolMailingDate: setAt(creator.nolMailingDate, r, data.mailingDate as string, null),
                  mail: {
                    ...(creator.mail ?? {}),
                    MailingDate: data.mailingDate,
                    [`Track${step.round}`]: data.trackingNumber,
                  },
                }
              : { nolProofOfDelivery: setAt(creator.nolProofOfDelivery, r, true, false) };
          await tx.update(nolEntries).set(set).where(eq(nolEntries.id, creator.id));
          return creator.id;
        }
        case "setup-billing":
          return (await create("NoLProfileBilling", { profile: { DailyAmount: (data.dailyAmount as number) / 100 } }))
            .id;
        case "true-bill": {
          const n = (step.round ?? 4) - 3;
          const prior = state.bills.at(-1);
          const lines = await nextBillLines(db, state);
          const checked = (name: string) =>
            Array.from({ length: TOTAL_RESPONDENT_SLOTS }, (_, i) => input.form.get(`${name}${i + 1}`) === "on");
          const flags = newBillFlags(
            lines,
            { continue: checked("continue"), status: checked("status") },
            billFlagsOf(prior),
          );
          const [continue1, continue2, continue3] = splitBySlotGroup(flags.continue);
          const [status1, status2, status3] = splitBySlotGroup(flags.status);
          const judgment = data.administrativeJudgment as number;
          const fee = prior?.administrativeJudgment ? escalationFee(prior.administrativeJudgment) : 0;
          const first = state.bills[0];
          const row = await create("NoLBilling", {
            tbValue: n,
            tbName: trueBillName(n),
            continueRespondents: continue1,
            continueExtraRespondentsR2: continue2,
            continueExtraRespondentsR3: continue3,
            respStatus: status1,
            respStatus2: status2,
            respStatus3: status3,
            data: { ...formMeta(input.form), billedSlots: lines.filter((l) => l.billed).map((l) => l.slot) },
            round: step.round!,
            preparationDate: data.preparationDate as string,
            preparationDate1tb: first?.preparationDate ?? (data.preparationDate as string),
            administrativeJudgment: judgment,
            administrativeJudgment1tb: first?.administrativeJudgment ?? judgment,
            escalationFee: fee,
            trueBillTotal: judgment + fee,
            firstTrueBillTotal: first?.trueBillTotal ?? judgment + fee,
          });
          return row.id;
        }
        case "true-bill-mailing":
        case "true-bill-proof": {
          const bill = state.bills.at(-1)!;
          const set =
            step.kind === "true-bill-mailing"
              ? { billMailingDate: data.mailingDate as string, billTracking: data.trackingNumber as string }
              : { billProofOfDelivery: true };
          await tx.update(nolEntries).set(set).where(eq(nolEntries.id, bill.id));
          return bill.id;
        }
      }
    });
  } catch (error) {
    // Nothing was saved: the pending record would otherwise wait for an entry forever.
    await services.db.delete(pendingSubmissions).where(eq(pendingSubmissions.id, pending.id));
    if (!(error instanceof StepConflict)) throw error;
    return conflict(error.message);
  }
  await services.db
    .update(pendingSubmissions)
    .set({ resolvedAt: new Date(), entryId })
    .where(eq(pendingSubmissions.id, pending.id));
  await audit(services.db, actorOf(viewer), `nol.step.${input.kind}`, "nol_entry", entryId, { version: input.version });
  return { ok: true, entryId };
}

export async function respondentsOf(db: Database, entryIds: string[]) {
  if (entryIds.length === 0) return [];
  return db.select().from(respondents).where(inArray(respondents.entryId, entryIds)).orderBy(respondents.slot);
}
