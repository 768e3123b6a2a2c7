import type { NotarizeJson } from "./notarize-flow";

/** What the notarize page shows of a notice's notarize: words for its status, and where its links go. */

export const NOTARIZE_STATUS_WORDS: Record<string, string> = {
  draft: "Draft: not sent to the signer yet",
  sent: "Sent: waiting for you to sign",
  in_progress: "In progress: meeting the notary and signing",
  completed: "Completed: notarized",
  expired: "Expired: not signed in time",
  cancelled: "Cancelled: not notarized",
};

export function notarizeStatusLabel(notarize: Pick<NotarizeJson, "nz_status" | "access_url"> | null): string {
  if (!notarize) return "Not notarized";
  if (!notarize.nz_status) return "Removed at Notarize Online";
  return NOTARIZE_STATUS_WORDS[notarize.nz_status] ?? notarize.nz_status;
}

/**
 * The notary's own, finer step in words, where it says more than the status does: a detail
 * that only repeats the status ("sent_to_signer" of a sent one) is not shown twice.
 */
const DETAIL_WORDS: Record<string, string> = {
  recalled: "taken back to change it",
  received: "you opened it",
  meeting_requested: "a notary meeting was asked for",
  partially_completed: "partly signed",
  completed_with_rejections: "the notary turned down a document",
  complete_with_rejections: "the notary turned down a document",
  declined: "you declined to sign",
  released: "notarized and released",
};
const DETAIL_REPEATS: Record<string, string[]> = {
  draft: ["draft", "started"],
  sent: ["sent", "sent_to_signer", "active"],
  in_progress: ["in_progress", "meeting_in_progress"],
  completed: ["completed", "complete"],
  expired: ["expired"],
  cancelled: ["cancelled", "canceled"],
};

export function notarizeDetailWords(notarize: Pick<NotarizeJson, "nz_status" | "nz_status2"> | null): string | null {
  const detail = notarize?.nz_status2?.trim().toLowerCase();
  if (!notarize?.nz_status || !detail) return null;
  if (DETAIL_REPEATS[notarize.nz_status]?.includes(detail)) return null;
  return DETAIL_WORDS[detail] ?? detail.replace(/[_.-]+/g, " ");
}

/** Statuses after which the notice can be sent to the notary again. */
const ENDED = new Set(["expired", "cancelled"]);

/** A notice with no notarize, or one that ended without a notarization or was removed, can be notarized (again). */
export function canStartNotarize(notarize: Pick<NotarizeJson, "nz_status"> | null): boolean {
  return notarize === null || notarize.nz_status === null || ENDED.has(notarize.nz_status);
}

/** A completed notarization stays: the notary keeps it, and so does the notice. */
export function canDeleteNotarize(notarize: Pick<NotarizeJson, "nz_status">): boolean {
  return notarize.nz_status !== "completed";
}

export const SANDBOX_SIGNER_BASE = "/notary/sandbox/";

/** The sandbox signer page of a transaction, with the page to return to once signed. */
export function sandboxSignerPath(transactionId: string, returnParam: string | null): string {
  const query = returnParam ? `?${new URLSearchParams({ return: returnParam })}` : "";
  return `${SANDBOX_SIGNER_BASE}${encodeURIComponent(transactionId)}${query}`;
}

/**
 * Where "Open the signing page" goes: the provider's access link; the sandbox's own signer page
 * (on this site) is given the notarize page to come back to.
 */
export function signingHref(
  notarize: Pick<NotarizeJson, "access_url" | "nz_id" | "nz_status">,
  returnPath: string,
): string | null {
  if (!notarize.access_url || notarize.nz_status === "completed") return null;
  let url: URL;
  try {
    url = new URL(notarize.access_url);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (url.pathname.startsWith(SANDBOX_SIGNER_BASE) && notarize.nz_id)
    return sandboxSignerPath(notarize.nz_id, returnPath);
  return url.href;
}

/** The notarized PDF, once the notary is done. */
export function notarizedHref(notarize: Pick<NotarizeJson, "nz_id" | "nz_status"> | null): string | null {
  if (!notarize?.nz_id || notarize.nz_status !== "completed") return null;
  return `/api/nol/notarize/${encodeURIComponent(notarize.nz_id)}/document`;
}
