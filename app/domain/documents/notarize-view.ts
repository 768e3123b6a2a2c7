import type { NotarizeJson } from "./notarize-flow";

/** What the notarize page shows of a notice's notarize: words for its status, and where its links go. */

const STATUS_LABELS: Record<string, string> = {
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
  return STATUS_LABELS[notarize.nz_status] ?? notarize.nz_status;
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
