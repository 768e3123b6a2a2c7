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

/** spec §9: "The entry type is 'Continue with Round'. The company tag is fixed." */
export const ENTRY_TYPE = "Continue with Round";
export const COMPANY_TAG = "memberhall";

/** spec §9 "The form timezone is sent": an IANA zone the runtime knows, else UTC. */
export function formTimezone(value: unknown): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 64) return "UTC";
  try {
    return new Intl.DateTimeFormat("en", { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return "UTC";
  }
}

/** The source a Contact Support request names (spec §2.4). */
export const SUPPORT_SOURCE = "Member Site";
