import type { NolForm } from "./entries";

/**
 * The spec names the embedded-form page `/nol/seemless/…` (spec §2.2); the code says
 * "seamless" everywhere else and maps to that address here only.
 */
export const SEAMLESS_PATH = "/nol/seemless";

/** The page names of the NoL forms. */
export const FORM_NAMES: Record<NolForm, string> = {
  NoLCreator2: "Notice creator",
  NoLProfileBilling: "Billing profile",
  NoLBilling: "True bills",
};

/** The /nol/{form} segment of a form: NoLCreator2 is "creator" (spec §2.2). */
export function formSegment(form: NolForm): string {
  return form === "NoLCreator2" ? "creator" : form;
}

/** The embedded-form address of an entry: its hash, and the entry named in the `entry` query (spec §2.2). */
export function seamlessLink(entry: { formId: number; id: string }, hash: string): string {
  // "*" is escaped: routers read a bare one in a path as a wildcard.
  const segment = encodeURIComponent(hash).replace(/\*/g, "%2A");
  return `${SEAMLESS_PATH}/${entry.formId}/${segment}?entry=${encodeURIComponent(JSON.stringify({ EntryId: entry.id }))}`;
}

/** A query string naming the owner when the notices are someone else's: "" or "?username=…". */
export function ownerQuery(owner: string | null): string {
  return owner ? `?username=${encodeURIComponent(owner)}` : "";
}

/** A form's pages as the address named it: /nol/creator or /nol/NoLCreator2 alike. */
export function formBase(segment: string): string {
  return `/nol/${segment}`;
}

/** The same as a further query parameter: "" or "&username=…". */
export function ownerParam(owner: string | null): string {
  return owner ? `&username=${encodeURIComponent(owner)}` : "";
}

/** The address of a step of a version on a form's page. */
export function stepHref(
  form: NolForm,
  causeSlug: string,
  step: string,
  version: string,
  owner: string | null,
): string {
  return `/nol/${formSegment(form)}/${causeSlug}/${step}?version=${encodeURIComponent(version)}${ownerParam(owner)}`;
}
