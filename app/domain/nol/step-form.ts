import { z } from "zod";
import { RESPONDENT_TYPES, slotsOpenIn, trackingField } from "./billing";
import type { Step, StepKind } from "./steps";
import { trackingNumberSchema } from "./timeline-inputs";

/**
 * The fields of each step's form (the built-in forms engine). The same schema validates in
 * the browser (conform) and in the save; a field left empty arrives as missing, so each
 * required field names its message for that case too.
 */

const money = (message: string) =>
  z
    .string({ required_error: message })
    .trim()
    .regex(/^\d{1,9}(\.\d{1,2})?$/, message)
    .transform((v) => Math.round(Number(v) * 100));

const AMOUNT = "Enter an amount such as 250 or 250.00";

const isoDate = z
  .string({ required_error: "Enter a date as YYYY-MM-DD" })
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Enter a date as YYYY-MM-DD")
  .refine((v) => !Number.isNaN(Date.parse(v)) && new Date(v).toISOString().startsWith(v), "Enter a real date");

const respondentName = z.string().trim().max(120, "Use at most 120 characters");

const respondentAddress = z.string().trim().max(300, "Use at most 300 characters");

/** The respondent fields a notice of a round shows: r{slot}Name, r{slot}Type and r{slot}Address. */
function respondentFields(round: number) {
  const fields: Record<string, z.ZodTypeAny> = {};
  for (let slot = 1; slot <= slotsOpenIn(round); slot += 1) {
    fields[`r${slot}Name`] = respondentName.optional();
    fields[`r${slot}Type`] = z.enum(RESPONDENT_TYPES).optional();
    fields[`r${slot}Address`] = respondentAddress.optional();
  }
  return fields;
}

/** Who a mailing goes to: the round's respondents, by slot. */
export type Recipient = { slot: number; name: string };

/**
 * What a step's checks know beyond its fields: today, the day the round was mailed, and who a
 * mailing goes to (each respondent's envelope has a tracking number of its own).
 */
export type StepContext = {
  today?: string;
  mailedOn?: string | null;
  recipients?: Recipient[];
  /** The day the round's notice was made: no envelope of it was mailed before. */
  noticeOn?: string | null;
};

/** A day an envelope went into the mail: not after today, not before the notice it holds was made. */
export function mailedDay(context: Pick<StepContext, "today" | "noticeOn">) {
  return isoDate
    .refine((day) => !context.today || day <= context.today, "The mailing date cannot be in the future")
    .refine(
      (day) => !context.noticeOn || day >= context.noticeOn,
      `The mailing date cannot be before the notice was made${context.noticeOn ? ` (${context.noticeOn})` : ""}`,
    );
}

/** A day a delivery or a return was recorded: not after today, not before the envelope was mailed. */
export function deliveryDay(context: Pick<StepContext, "today" | "mailedOn">, what = "delivery") {
  return isoDate
    .refine((day) => !context.today || day <= context.today, `The ${what} date cannot be in the future`)
    .refine(
      (day) => !context.mailedOn || day >= context.mailedOn,
      `The ${what} date cannot be before the mailing date${context.mailedOn ? ` (${context.mailedOn})` : ""}`,
    );
}

/** A mailing's tracking numbers: one for each recipient, or one for the round when none is known. */
function trackingFields(recipients: Recipient[] | undefined) {
  if (!recipients?.length) return { trackingNumber: trackingNumberSchema };
  return Object.fromEntries(recipients.map((r) => [trackingField(r.slot), trackingNumberSchema]));
}

/** "Send it early anyway": a new round chosen before its window has closed (decision 034). */
const sendEarly = z.literal("on").optional();

export function stepSchema(step: Pick<Step, "kind" | "round">, context: StepContext = {}) {
  switch (step.kind) {
    case "notice":
      return z
        .object({
          sendEarly,
          claimantName: z
            .string({ required_error: "Enter the claimant's name" })
            .trim()
            .min(1, "Enter the claimant's name")
            .max(120),
          // The letters' return address; left empty, the letters print a line to write it on.
          claimantAddress: z.string().trim().max(300, "Use at most 300 characters").optional(),
          dailyAmount: money(AMOUNT),
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
      return z.object({ mailingDate: mailedDay(context), ...trackingFields(context.recipients) });
    case "proof":
    case "true-bill-proof":
      return z.object({
        delivered: z.literal("on", { errorMap: () => ({ message: "Confirm that the proof of delivery arrived" }) }),
        deliveredOn: deliveryDay(context),
      });
    case "setup-billing":
      return z.object({ dailyAmount: money(AMOUNT) });
    case "true-bill":
      return z.object({ sendEarly, preparationDate: isoDate, administrativeJudgment: money(AMOUNT) });
  }
}

/** The step kinds, as they appear in /nol/{form}/{cause}/{step}. */
export const STEP_KINDS = [
  "notice",
  "mailing",
  "proof",
  "setup-billing",
  "true-bill",
  "true-bill-mailing",
  "true-bill-proof",
] as const satisfies readonly StepKind[];
