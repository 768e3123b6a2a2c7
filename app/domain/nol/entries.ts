import { z } from "zod";

/** The NoL forms (spec §3 "NoL entry": form). */
export const NOL_FORMS = ["NoLCreator2", "NoLProfileBilling", "NoLBilling"] as const;
export type NolForm = (typeof NOL_FORMS)[number];

export const FORM_BY_ID: Record<number, NolForm> = { 187: "NoLCreator2", 189: "NoLProfileBilling", 194: "NoLBilling" };
export const FORM_ID: Record<NolForm, number> = { NoLCreator2: 187, NoLProfileBilling: 189, NoLBilling: 194 };

/** "The form value 'creator' is treated as NoLCreator2." */
export function formFromParam(param: string | undefined): NolForm | null {
  if (!param) return null;
  if (param === "creator") return "NoLCreator2";
  return (NOL_FORMS as readonly string[]).includes(param) ? (param as NolForm) : null;
}

/** The parts of a member version the rules read. */
export type EntryFacts = {
  id: string;
  form: NolForm;
  cause: string;
  descriptive_version: string;
  updated: string;
  edit_link: string | null;
  view_link: string | null;
  nol_tracking: boolean[];
  nol_mailing_date: (string | null)[];
  nol_proof_of_delivery: boolean[];
  tb_value: number | null;
  bill_mailing_date: string | null;
  bill_proof_of_delivery: boolean | null;
};

/** "The version text is trimmed." */
export const versionSchema = z
  .string({ required_error: "Name this version" })
  .trim()
  .min(1, "Name this version")
  .max(120, "Use at most 120 characters");

/** The form that starts a new version: its name. */
export const newVersionSchema = z.object({ version: versionSchema });
