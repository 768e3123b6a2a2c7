/** The form ids of spec §3. */
export const FORM_IDS = {
  nolCreator2: 187,
  profileBilling: 189,
  billing: 194,
  noticeOfCorrection: 218,
  suggestRespondent: 207,
  searchRespondent: 92,
  respondentReassessment: 134,
  support: 255,
} as const;

/** "The cognito hash is a fragment part longer than 30 characters ending in *." */
export function isFormHash(fragment: string): boolean {
  return fragment.length > 30 && fragment.endsWith("*");
}
