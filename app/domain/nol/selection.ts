import type { EntryFacts } from "./entries";

/** spec §4 "Selection". */
export const AUTO_SELECT_MODES = ["never", "sometimes", "always", "back"] as const;
export type AutoSelect = (typeof AUTO_SELECT_MODES)[number];

export type Selection = {
  selectedNolId: string | null;
  descriptiveVersion: string | null;
  cause: string | null;
  round: number | string | null;
  editor: string | null;
};

export const emptySelection: Selection = {
  selectedNolId: null,
  descriptiveVersion: null,
  cause: null,
  round: null,
  editor: null,
};

/** The hash part of an entry's link (after "#", or the last path segment). */
export function linkHash(link: string | null): string | null {
  if (!link) return null;
  const hashIndex = link.indexOf("#");
  if (hashIndex >= 0) return link.slice(hashIndex + 1) || null;
  const segment = link.split("?")[0]!.split("/").filter(Boolean).pop();
  if (!segment) return null;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * "A selected entry is chosen by matching the href hash to an entry's edit or view link.
 * Exactly one match selects it and sets its version and cause; otherwise the selection clears."
 */
export function selectByHash(
  entries: Pick<EntryFacts, "id" | "edit_link" | "view_link" | "descriptive_version" | "cause">[],
  hash: string | null,
  current: Selection,
): Selection {
  const matches = hash ? entries.filter((e) => linkHash(e.edit_link) === hash || linkHash(e.view_link) === hash) : [];
  if (matches.length !== 1) return { ...current, selectedNolId: null };
  const [entry] = matches;
  return { ...current, selectedNolId: entry!.id, descriptiveVersion: entry!.descriptive_version, cause: entry!.cause };
}

/** "Unselecting resets version, round and editor." */
export function unselect(current: Selection): Selection {
  return { ...current, selectedNolId: null, descriptiveVersion: null, round: null, editor: null };
}

/**
 * Which entry the page selects by itself. never: none; sometimes: the only entry, when
 * there is exactly one; always: the latest; back: the one selected before, if still there.
 */
export function autoSelect(
  mode: AutoSelect,
  entries: Pick<EntryFacts, "id" | "updated">[],
  previous: string | null,
): string | null {
  if (mode === "never" || entries.length === 0) return null;
  if (mode === "sometimes") return entries.length === 1 ? entries[0]!.id : null;
  if (mode === "back") return entries.some((e) => e.id === previous) ? previous : null;
  return [...entries].sort((a, b) => b.updated.localeCompare(a.updated))[0]!.id;
}

/** "The edit permission exists only if the selected entry has an edit_link." */
export function canEdit(entry: Pick<EntryFacts, "edit_link"> | null): boolean {
  return Boolean(entry?.edit_link);
}

/** "The editor can be another user (authEditor), otherwise the signed-in user's entry." */
export function editorOf(authEditor: string | null | undefined, signedIn: string): string {
  return authEditor || signedIn;
}
