import { parseWithZod } from "@conform-to/zod";
import { eq, sql } from "drizzle-orm";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { LOCK, xactLock } from "~/db/locks";
import { nolEntries, pendingSubmissions, respondents } from "~/db/schema";
import { conflict, invalid, type FieldErrors } from "~/domain/errors";
import { COMPANY_TAG, ENTRY_TYPE, formTimezone } from "~/domain/forms";
import {
  escalationFee,
  newBillFlags,
  slotsOpenIn,
  splitBySlotGroup,
  TOTAL_RESPONDENT_SLOTS,
  type BillLine,
} from "~/domain/nol/billing";
import { FORM_ID, type NolForm } from "~/domain/nol/entries";
import { trueBillName } from "~/domain/nol/rounds";
import { stepSchema, type StepContext } from "~/domain/nol/step-form";
import type { ResponseWindows } from "~/domain/nol/timeline";
import type { Step, StepKind } from "~/domain/nol/steps";
import { newFormHash } from "~/lib/form-hash.server";
import { recordNotices } from "../documents/records.server";
import { audit, actorOf } from "../audit.server";
import type { UserRow, Viewer } from "../session.server";
import {
  billFlagsOf,
  entriesOf,
  mailingRecipients,
  nextBillLines,
  respondentsOf,
  versionState,
  type VersionState,
} from "./entries.server";
import { recordPending } from "./pending.server";
import { keepVersionFeatures } from "./features.server";
import { refuseEarly, stepContext } from "./step-rules.server";
import { versionTimeline } from "./timeline.server";
import { noticeDayOf, stepService } from "./service.server";
import { recordService, refuseUnserved } from "./step-service.server";

/** Saving one step of a member version through the built-in forms (spec §4, §5). */

type StepInput = {
  causeCode: string;
  version: string;
  kind: StepKind;
  form: FormData;
  /** The response windows the cause sets (the configuration's count for the others). */
  windows?: Partial<ResponseWindows>;
};
type Values = Record<string, unknown>;
type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

const stepTaken = (label: string) => conflict(`The next step of this version is ${label}.`);

/** The form's values under the step's schema (the browser checked the same), or an invalid error. */
function valuesFor(step: Step, form: FormData, context: StepContext): Values {
  const submission = parseWithZod(form, { schema: stepSchema(step, context) });
  if (submission.status === "success") return submission.value as Values;
  const fieldErrors: FieldErrors = {};
  for (const [name, errors] of Object.entries(submission.error ?? {})) if (errors) fieldErrors[name] = errors;
  throw invalid("Check the fields below", fieldErrors);
}

/**
 * Saves one step: like a hosted form it adds a pending record first, then stores the entry
 * and marks the submission done. Throws invalid (with field errors) or conflict (the step was
 * taken meanwhile); nothing is left pending then.
 */
export async function submitStep(
  services: AppServices,
  viewer: Viewer,
  owner: UserRow,
  input: StepInput,
): Promise<{ entryId: string }> {
  const rows = await entriesOf(services.db, owner.id, input.causeCode);
  const seen = versionState(rows, input.version);
  if (seen.step.kind !== input.kind) throw stepTaken(seen.step.label);
  const now = new Date();
  const recipients = await mailingRecipients(services.db, seen);
  const service = await stepService(services.db, seen);
  const noticeOn = service ? await noticeDayOf(services.db, owner.id, seen) : null;
  refuseUnserved(seen.step, service);
  const values = valuesFor(seen.step, input.form, stepContext(seen, now, recipients, { service, noticeOn }));
  refuseEarly(versionTimeline(services.config, input.windows ?? {}, seen, now), seen.step, values);
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
      // One step of one version at a time: a second submit of the same step (a double click,
      // a retry) waits here, then finds the step already done.
      await tx.execute(xactLock(LOCK.versionStep, `${owner.id}|${input.causeCode}|${input.version}`));
      const state = versionState(await entriesOf(tx as unknown as Database, owner.id, input.causeCode), input.version);
      if (state.step.kind !== seen.step.kind || state.step.round !== seen.step.round) throw stepTaken(state.step.label);
      const saved = await saveStep(new StepWriter(tx, owner, input, viewer), state, values);
      // The round's claim, notice and notice_cf go with the entry, or neither does.
      await recordNotices(tx as unknown as Database, saved);
      return saved;
    });
  } catch (error) {
    // Nothing was saved: the pending record would otherwise wait for an entry forever.
    await services.db.delete(pendingSubmissions).where(eq(pendingSubmissions.id, pending.id));
    throw error;
  }
  await services.db
    .update(pendingSubmissions)
    .set({ resolvedAt: new Date(), entryId })
    .where(eq(pendingSubmissions.id, pending.id));
  await audit(services.db, actorOf(viewer), `nol.step.${input.kind}`, "nol_entry", entryId, { version: input.version });
  return { entryId };
}

/** The words for a round asked for before its window has closed. */
/**
 * A mailing's tracking numbers: by slot when each respondent's envelope has its own (the
 * first also stands for the round, as spec §3's Track1..n and bill_tracking keep one), or the
 * round's one number.
 */
function mailedTracking(data: Values): { first: string; bySlot: Record<string, string> | null } {
  const bySlot = Object.fromEntries(
    Object.entries(data).flatMap(([name, value]) => {
      const slot = /^track(\d+)$/.exec(name)?.[1];
      return slot && typeof value === "string" ? [[slot, value]] : [];
    }),
  );
  const slots = Object.keys(bySlot).sort((a, b) => Number(a) - Number(b));
  if (slots.length === 0) return { first: data.trackingNumber as string, bySlot: null };
  return { first: bySlot[slots[0]!]!, bySlot };
}

/** The writes of a step inside its transaction. */
class StepWriter {
  readonly db: Database;
  constructor(
    readonly tx: Tx,
    readonly owner: UserRow,
    readonly input: StepInput,
    readonly viewer: Viewer,
  ) {
    this.db = tx as unknown as Database;
  }

  /** What every submission carries (spec §9): the entry type, the company tag, the member's timezone. */
  meta() {
    return { EntryType: ENTRY_TYPE, Company: COMPANY_TAG, Timezone: formTimezone(this.input.form.get("timezone")) };
  }

  checked(name: string): boolean[] {
    return Array.from({ length: TOTAL_RESPONDENT_SLOTS }, (_, i) => this.input.form.get(`${name}${i + 1}`) === "on");
  }

  /** A new entry of a form, numbered after the form's last one. */
  async create(form: NolForm, values: Partial<typeof nolEntries.$inferInsert>) {
    const formId = FORM_ID[form];
    await this.tx.execute(xactLock(LOCK.formEntryNumbers, formId));
    const [last] = await this.tx
      .select({ n: sql<number>`coalesce(max(${nolEntries.entryNumber}), 0)` })
      .from(nolEntries)
      .where(eq(nolEntries.formId, formId));
    const entryNumber = Number(last?.n ?? 0) + 1;
    const [row] = await this.tx
      .insert(nolEntries)
      .values({
        id: `${formId}-${entryNumber}`,
        form,
        formId,
        entryNumber,
        userId: this.owner.id,
        causeCode: this.input.causeCode,
        descriptiveVersion: this.input.version,
        editHash: newFormHash(),
        viewHash: newFormHash(),
        ...values,
      })
      .returning();
    await keepVersionFeatures(this.tx, {
      userId: this.owner.id,
      causeCode: this.input.causeCode,
      version: this.input.version,
    });
    return row!;
  }

  async update(id: string, set: Partial<typeof nolEntries.$inferInsert>) {
    await this.tx.update(nolEntries).set(set).where(eq(nolEntries.id, id));
    return id;
  }
}

/** A list with one place set, filled up to it. */
function setAt<T>(list: T[], index: number, value: T, fill: T): T[] {
  const copy = [...list];
  while (copy.length < index) copy.push(fill);
  copy[index] = value;
  return copy;
}

async function saveStep(w: StepWriter, state: VersionState, data: Values): Promise<string> {
  const { step } = state;
  const r = (step.round ?? 1) - 1;
  switch (step.kind) {
    case "notice":
      return saveNotice(w, state, data);
    case "mailing":
    case "true-bill-mailing": {
      const recorded = await recordService(w, state, "mailed", data);
      if (recorded) return recorded;
      const tracking = mailedTracking(data);
      if (step.kind === "true-bill-mailing") {
        const bill = state.bills.at(-1)!;
        return w.update(bill.id, {
          billMailingDate: data.mailingDate as string,
          billTracking: tracking.first,
          ...(tracking.bySlot ? { data: { ...bill.data, tracking: tracking.bySlot } } : {}),
        });
      }
      return w.update(state.creator!.id, {
        nolMailingDate: setAt(state.creator!.nolMailingDate, r, data.mailingDate as string, null),
        mail: {
          ...(state.creator!.mail ?? {}),
          MailingDate: data.mailingDate,
          [`Track${step.round}`]: tracking.first,
          ...(tracking.bySlot ? { [`Tracking${step.round}`]: tracking.bySlot } : {}),
        },
      });
    }
    case "proof":
    case "true-bill-proof": {
      const recorded = await recordService(w, state, "delivered", data);
      if (recorded) return recorded;
      if (step.kind === "true-bill-proof")
        return w.update(state.bills.at(-1)!.id, {
          billProofOfDelivery: true,
          billDeliveryDate: data.deliveredOn as string,
        });
      return w.update(state.creator!.id, {
        nolProofOfDelivery: setAt(state.creator!.nolProofOfDelivery, r, true, false),
        nolDeliveryDate: setAt(state.creator!.nolDeliveryDate, r, data.deliveredOn as string, null),
      });
    }
    case "setup-billing":
      return (await w.create("NoLProfileBilling", { profile: { DailyAmount: (data.dailyAmount as number) / 100 } })).id;
    case "true-bill":
      return saveTrueBill(w, state, data, await nextBillLines(w.db, state));
  }
}

/** A round's notice: the creator entry (made on round 1), its respondents and profile counts. */
async function saveNotice(w: StepWriter, state: VersionState, data: Values): Promise<string> {
  const round = state.step.round!;
  const creator =
    state.creator ?? (await w.create("NoLCreator2", { data: { claimantName: data.claimantName }, profile: {} }));
  // A slot left blank keeps the respondent named in an earlier round; a name given
  // without a type keeps the type it had.
  const stored = new Map(
    (await respondentsOf(w.db, [creator.id])).map((x) => [x.slot, { slot: x.slot, type: x.type }]),
  );
  for (let slot = 1; slot <= slotsOpenIn(round); slot += 1) {
    const name = data[`r${slot}Name`] as string | undefined;
    if (!name) continue;
    const type = (data[`r${slot}Type`] as string | undefined) ?? stored.get(slot)?.type ?? "Individual";
    // An address left blank keeps the one given before.
    const given = data[`r${slot}Address`] as string | undefined;
    const address = given ? { Address: given } : undefined;
    await w.tx
      .insert(respondents)
      .values({ entryId: creator.id, slot, name, type, address })
      .onConflictDoUpdate({ target: [respondents.entryId, respondents.slot], set: { name, type, address } });
    stored.set(slot, { slot, type });
  }
  const count = (first: number, last: number) =>
    [...stored.keys()].filter((slot) => slot >= first && slot <= last).length;
  const profile: Record<string, unknown> = {
    ...(creator.profile ?? {}),
    DailyAmount: (data.dailyAmount as number) / 100,
  };
  if (round === 1) profile.TotalRespondents = count(1, 8);
  if (round === 2) profile.TotalExtraRespondentsR2 = count(9, 12);
  if (round === 3) profile.TotalExtraRespondentsR3 = count(13, 16);
  // spec §3: the profile names the type of each extra respondent (R9..R16RespondentType).
  for (let slot = 9; slot <= 16; slot += 1) {
    const respondent = stored.get(slot);
    if (respondent) profile[`R${slot}RespondentType`] = respondent.type;
  }
  return w.update(creator.id, {
    round,
    nolTracking: setAt(creator.nolTracking, round - 1, true, false),
    profile,
    data: {
      ...creator.data,
      claimantName: data.claimantName,
      // An address left blank keeps the one given before.
      ...(data.claimantAddress ? { claimantAddress: data.claimantAddress } : {}),
      ...w.meta(),
    },
  });
}

/** The next true bill: who it bills, its flags, and its amounts with the escalation fee (spec §5). */
async function saveTrueBill(w: StepWriter, state: VersionState, data: Values, lines: BillLine[]): Promise<string> {
  const n = (state.step.round ?? 4) - 3;
  const prior = state.bills.at(-1);
  const flags = newBillFlags(
    lines,
    { continue: w.checked("continue"), status: w.checked("status") },
    billFlagsOf(prior),
  );
  const [continue1, continue2, continue3] = splitBySlotGroup(flags.continue);
  const [status1, status2, status3] = splitBySlotGroup(flags.status);
  const judgment = data.administrativeJudgment as number;
  const fee = prior?.administrativeJudgment ? escalationFee(prior.administrativeJudgment) : 0;
  const first = state.bills[0];
  const row = await w.create("NoLBilling", {
    tbValue: n,
    tbName: trueBillName(n),
    continueRespondents: continue1,
    continueExtraRespondentsR2: continue2,
    continueExtraRespondentsR3: continue3,
    respStatus: status1,
    respStatus2: status2,
    respStatus3: status3,
    data: { ...w.meta(), billedSlots: lines.filter((l) => l.billed).map((l) => l.slot) },
    round: state.step.round!,
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
