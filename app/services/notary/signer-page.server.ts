import { z } from "zod";
import type { AppServices } from "~/context";
import { communityFor } from "~/domain/community";
import { safeRedirectPath } from "~/domain/guard";
import { REMOVED_MESSAGE } from "~/domain/documents/notarize-flow";
import { isProviderError } from "~/providers/errors";
import type { SignerStep } from "~/providers/notary/types";

/**
 * The sandbox notary's signer page (/notary/sandbox/{id}): what Proof's signer app is to a Proof
 * transaction. It is public: the 128-bit id in the access URL is the signer's key, as Proof's
 * link is. It exists only while the sandbox is the notary.
 */

export type SignerPageData =
  | { kind: "removed"; message: string; community: string; returnTo: string }
  | {
      kind: "open";
      transactionId: string;
      documentName: string;
      signerName: string;
      step: SignerStep;
      detailedStatus: string;
      documentUrl: string;
      community: string;
      /** Where "return to the community" leads: the notarize page that sent the signer here, or the home page. */
      returnTo: string;
      /** The same-site path the page was given, kept through its forms; null when none (or not a safe one). */
      returnParam: string | null;
    };

export type SignerIntent = "meet" | "sign" | "remove";

export const signerStepSchema = z.object({
  intent: z.enum(["meet", "sign", "remove"]),
  return: z.string().max(2_000).optional(),
});

/** A `return` value the page may follow: a path on this site, or nothing. */
export function safeReturn(value: string | null | undefined): string | null {
  return safeRedirectPath(value, "") || null;
}

/** The page's data; null when there is no such transaction (or no sandbox): a 404. */
export async function signerPage(
  services: AppServices,
  transactionId: string,
  returnValue: string | null,
): Promise<SignerPageData | null> {
  const sandbox = services.providers.notarySandbox;
  if (!sandbox) return null;
  const view = await sandbox.signerView(transactionId);
  if (!view) return null;
  const community = communityFor(services.config.community).name;
  const returnParam = safeReturn(returnValue);
  const returnTo = returnParam ?? "/";
  if (view.kind === "removed") return { kind: "removed", message: REMOVED_MESSAGE, community, returnTo };
  return {
    kind: "open",
    transactionId: view.transaction.id,
    documentName: view.documentName,
    signerName: view.signerName,
    step: view.step,
    detailedStatus: view.transaction.detailedStatus,
    documentUrl: `/notary/sandbox/${encodeURIComponent(view.transaction.id)}/document`,
    community,
    returnTo,
    returnParam,
  };
}

/** The signer's step from the page's form: null when there is no such transaction; a refusal's message to show. */
export async function takeSignerStep(
  services: AppServices,
  transactionId: string,
  intent: SignerIntent,
): Promise<{ ok: true } | { ok: false; message: string } | null> {
  const sandbox = services.providers.notarySandbox;
  if (!sandbox) return null;
  if (intent === "remove") {
    // What the provider's own staff can do to a transaction: the site learns it by its event or a refresh.
    if (!(await sandbox.signerView(transactionId))) return null;
    await sandbox.deleteAtProvider(transactionId);
    return { ok: true };
  }
  try {
    const done = intent === "meet" ? await sandbox.meetNotary(transactionId) : await sandbox.sign(transactionId);
    return done ? { ok: true } : null;
  } catch (error) {
    if (isProviderError(error, "notary_refused")) return { ok: false, message: error.message };
    throw error;
  }
}

/** The PDF the page shows; null when there is none to show. */
export async function signerDocument(services: AppServices, transactionId: string) {
  return (await services.providers.notarySandbox?.signerDocument(transactionId)) ?? null;
}
