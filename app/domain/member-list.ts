import { z } from "zod";
import { namesOf } from "./audit-words";
import { grantComplimentarySchema } from "./complimentary-inputs";
import type { SensitiveAction } from "./second-factor";

/** The members list's bulk actions: on the members ticked, or on every member the filter matches. */

export const BULK_ACTIONS = [
  "set-nolCreator",
  "clear-nolCreator",
  "set-nolTester",
  "clear-nolTester",
  "email",
  "grant-complimentary",
  "export",
] as const;

/** The bulk actions that ask for a fresh second factor (decision 045): flags, grants, exports. */
export function bulkStepUp(action: (typeof BULK_ACTIONS)[number]): SensitiveAction | null {
  if (action === "email") return null;
  if (action === "grant-complimentary") return "grant-membership";
  if (action === "export") return "export";
  return "role-change";
}

export const bulkFormSchema = z
  .object({
    action: z.enum(BULK_ACTIONS, { errorMap: () => ({ message: "Choose what to do" }) }),
    scope: z.enum(["selected", "all"], { errorMap: () => ({ message: "Choose which members" }) }),
    ids: z
      .preprocess(
        (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]),
        z
          .array(z.string().uuid("A member id is not valid"))
          .max(500, "Tick at most 500 members, or choose every member of the list"),
      )
      .default([]),
    subject: z.string().trim().max(200, "Use at most 200 characters").optional(),
    body: z.string().trim().max(10_000, "Use at most 10,000 characters").optional(),
    // A complimentary membership's terms, as the member's page takes them.
    planId: grantComplimentarySchema.shape.planId.optional(),
    endsOn: grantComplimentarySchema.shape.endsOn,
    note: grantComplimentarySchema.shape.note,
  })
  .superRefine((form, ctx) => {
    if (form.scope === "selected" && form.ids.length === 0) {
      ctx.addIssue({
        code: "custom",
        path: ["ids"],
        message: "Tick the members first, or choose every member of the list",
      });
    }
    if (form.action === "grant-complimentary") {
      if (!form.planId) ctx.addIssue({ code: "custom", path: ["planId"], message: "Choose a plan" });
      if (form.scope === "all")
        ctx.addIssue({
          code: "custom",
          path: ["scope"],
          message: "Tick the members to give a complimentary membership to (at most 500 at a time)",
        });
    }
    if (form.action === "email") {
      if (!form.subject) ctx.addIssue({ code: "custom", path: ["subject"], message: "Enter the e-mail's subject" });
      if (!form.body) ctx.addIssue({ code: "custom", path: ["body"], message: "Write the e-mail" });
    }
  });
export type BulkForm = z.infer<typeof bulkFormSchema>;

export type MemberBulkAction =
  | { kind: "flag"; flag: "nolCreator" | "nolTester"; value: boolean; ids: readonly string[] | "all" }
  | { kind: "email"; subject: string; body: string; ids: readonly string[] | "all" }
  | { kind: "export"; ids: readonly string[] | "all" }
  | { kind: "complimentary"; planId: string; endsOn: string | undefined; note: string | null; ids: readonly string[] };

export function bulkActionOf(form: BulkForm): MemberBulkAction {
  const ids = form.scope === "all" ? "all" : form.ids;
  if (form.action === "email") return { kind: "email", subject: form.subject ?? "", body: form.body ?? "", ids };
  if (form.action === "export") return { kind: "export", ids };
  if (form.action === "grant-complimentary")
    return { kind: "complimentary", planId: form.planId ?? "", endsOn: form.endsOn, note: form.note, ids: form.ids };
  const [verb, flag] = form.action.split("-") as ["set" | "clear", "nolCreator" | "nolTester"];
  return { kind: "flag", flag, value: verb === "set", ids };
}

/** What a finished bulk action says. */
export function bulkDoneMessage(action: MemberBulkAction, reached: number, names: readonly string[] = []): string {
  const members = `${reached} ${reached === 1 ? "member" : "members"}`;
  if (action.kind === "email") return `The e-mail is on its way to ${members}.`;
  if (action.kind === "export") return `${members} exported.`;
  if (action.kind === "complimentary") return `${members} got a complimentary membership.`;
  const role = action.flag === "nolCreator" ? "NoL creator" : "NoL tester";
  const who = names.length > 0 ? `: ${namesOf(reached, names)}` : "";
  return action.value ? `${members} became ${role}${who}.` : `${members} are no longer ${role}${who}.`;
}

/** The admin's actions on one member's page (/members/{id}). */
export const memberActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("end-sessions") }),
  z.object({ intent: z.literal("reset-factors") }),
  z.object({ intent: z.literal("renew-now") }),
  z.object({ intent: z.literal("end-complimentary") }),
  z.object({ intent: z.literal("end-session"), session: z.string().regex(/^[0-9a-f]{16}$/, "Choose a session") }),
  z.object({
    intent: z.literal("version-features"),
    cause: z.string().trim().min(1).max(40),
    version: z.string().trim().min(1).max(120),
    allowNotarizeOnline: z.literal("on").optional(),
  }),
  z.object({
    intent: z.literal("flags"),
    nolCreator: z.literal("on").optional(),
    nolTester: z.literal("on").optional(),
  }),
]);
