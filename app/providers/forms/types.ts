/**
 * An entry the forms provider stored, with the links that open it again. The built-in engine's
 * id is its row in form_entries; a hosted service's is its own ("<form>-<number>").
 */
export type FormEntry = {
  /** The entry's id in our database. */
  id: string;
  formId: number;
  entryNumber: number;
  editHash: string;
  viewHash: string;
  /** A hosted entry's own links; our own entries open through their hashes. */
  editLink?: string | null;
  viewLink?: string | null;
};

/** A new entry of a form: its form, whose it is (null: a visitor's), and its fields. */
export type FormSubmission = { formId: number; userId: string | null; data: Record<string, unknown> };

/** A hosted form's entry as its webhook delivers it: `Id` "<form>-<number>", its metadata, and its fields. */
export type HostedEntry = {
  Id: string;
  Entry: { Number: number; Version: number; EditLink?: string | null; ViewLink?: string | null };
  [field: string]: unknown;
};

/** The forms service (spec §3 form ids): the built-in engine and Cognito Forms both answer it. */
export interface FormsProvider {
  readonly name: "builtin" | "cognito";
  submit(input: FormSubmission): Promise<FormEntry>;
  /**
   * Reads a webhook delivery in the hosted service's wire format; throws an invalid DomainError
   * when it is not an entry. Absent when the forms are our own (no deliveries come).
   */
  readEntry?(payload: unknown): HostedEntry;
}
