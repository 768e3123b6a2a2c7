/**
 * Members' labels as people wrote them. A spreadsheet or a mailing tool quotes a tag that holds
 * a separator, and Mailchimp quotes every one (its TAGS cell reads `"Volunteers","Donors"`):
 * the quotes are the file's, not the label's.
 */

export const LABEL_MAX = 50;
export const LABELS_MAX = 20;

/** Quote marks a label may come wrapped in: straight, curly and the spreadsheet's doubled ones. */
const QUOTES = `"'“”‘’„«»`;
const WRAPPED = new RegExp(`^[${QUOTES}]+|[${QUOTES}]+$`, "g");

/** A label without the quote marks around it, and without spaces at its ends: `"Volunteers"` → `Volunteers`. */
export function cleanLabel(label: string): string {
  return label.trim().replace(WRAPPED, "").trim();
}

/**
 * The labels a cell holds, in order, each once: separated by commas, semicolons or bars, where a
 * quoted label keeps the separators inside its quotes (`"Board, 2021","VIP"` is two labels).
 */
export function splitLabels(cell: string): string[] {
  const labels: string[] = [];
  for (const match of cell.matchAll(/\s*"([^"]*)"|\s*“([^”]*)”|([^,;|]+)/g)) {
    const label = cleanLabel(match[1] ?? match[2] ?? match[3] ?? "");
    if (label && !labels.includes(label)) labels.push(label);
  }
  return labels;
}

/** A cell's labels as an import keeps them: at most LABELS_MAX, each cut to LABEL_MAX; `notes` says what was cut. */
export function importedLabels(cell: string, notes: string[]): string[] {
  const labels = splitLabels(cell);
  if (labels.some((label) => label.length > LABEL_MAX)) notes.push(`A label longer than ${LABEL_MAX} characters: cut`);
  if (labels.length > LABELS_MAX) notes.push(`More than ${LABELS_MAX} labels: the first ${LABELS_MAX} kept`);
  return labels.slice(0, LABELS_MAX).map((label) => label.slice(0, LABEL_MAX));
}
