/** An entry the forms provider stored, with the links that open it again. */
export type FormEntry = {
  /** The entry's id in our database. */
  id: string;
  formId: number;
  entryNumber: number;
  editHash: string;
  viewHash: string;
};

/** The forms service (spec §3 form ids): the built-in engine and Cognito Forms both answer it. */
export interface FormsProvider {
  readonly name: "builtin" | "cognito";
  submit(input: { formId: number; userId: string | null; data: Record<string, unknown> }): Promise<FormEntry>;
}
