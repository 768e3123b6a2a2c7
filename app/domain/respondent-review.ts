/**
 * A suggestion's or a reassessment request's answers on the admins' review page (kept apart
 * from respondents.ts and its schemas, which the page does not need).
 */

/** The review page's words for a request's answers: the labels of the form the member filled in. */
const REVIEW_LABELS: Record<string, string> = {
  name: "Name",
  type: "Kind of respondent",
  agency: "Agency or company",
  place: "Place",
  address: "Address",
  respondentName: "Respondent",
};

/** The order the forms ask their questions in (the stored answers keep no order). */
const REVIEW_ORDER = ["name", "respondentName", "type", "agency", "place", "address", "reason"];

/**
 * A suggestion's or a reassessment request's answers as the admin reads them: labelled as the
 * form asked them, the directory's own number left out (the respondent is named).
 */
export function reviewFacts(kind: "suggestion" | "reassessment", data: Record<string, unknown>): [string, string][] {
  const place = (key: string) => (REVIEW_ORDER.includes(key) ? REVIEW_ORDER.indexOf(key) : REVIEW_ORDER.length);
  return Object.entries(data)
    .filter(([key]) => key !== "respondentId")
    .sort(([a], [b]) => place(a) - place(b))
    .map(([key, value]): [string, string] => {
      const label =
        key === "reason"
          ? kind === "suggestion"
            ? "Why they belong in the directory"
            : "What should be reassessed"
          : (REVIEW_LABELS[key] ?? key.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/^./, (c) => c.toUpperCase()));
      return [label, value === null || value === undefined || value === "" ? "—" : String(value)];
    });
}
