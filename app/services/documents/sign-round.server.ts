import { createHash } from "node:crypto";
import { PDFDocument } from "pdf-lib";
import type { AppServices } from "~/context";
import { roundSignatures } from "~/db/schema";
import { noticeRoundsOf } from "~/domain/documents/records";
import { consentWords, signedLine, signPageHref, type SignForm } from "~/domain/documents/signature";
import { forbidden, invalid, notFound } from "~/domain/errors";
import { versionSchema } from "~/domain/nol/entries";
import { NOTICE_ROUNDS } from "~/domain/nol/rounds";
import { roundName } from "~/domain/nol/timeline";
import { roundQuerySchema } from "~/domain/nol/timeline-inputs";
import { formatDateTime } from "~/lib/format";
import { actorOf, audit } from "../audit.server";
import { versionState } from "../nol/entries.server";
import { causeOf, type PageAddress } from "../nol/pages.server";
import { roundDocumentBases } from "../nol/timeline.server";
import type { Viewer } from "../session.server";
import { findNotice } from "./notices.server";
import { renderNoticePdf } from "./render.server";
import { latestSignature, type RoundSignatureRow } from "./signatures.server";

/**
 * Signing a round's notice (/nol/{form}/{cause}/sign?version=…&round=…), the member's own act
 * (docs/decisions/058): the consent to sign electronically, the signature typed or drawn, and a
 * record of it — who, when, from which session and address, and the SHA-256 of the notice as it
 * stood — kept with an audit entry.
 */

type Input = { cause: string; version: unknown; round: unknown };

/** Where a request to sign names: the member's version, its round, the round's entry and notice. */
async function roundToSign(services: AppServices, viewer: Viewer, address: PageAddress, input: Input) {
  const place = await causeOf(services, viewer, address, input.cause);
  const version = versionSchema.safeParse(input.version);
  const round = roundQuerySchema.safeParse(input.round);
  if (!version.success || !round.success) throw notFound("Name the version and the round of the notice to sign");
  const state = versionState(place.rows, version.data);
  const entry =
    round.data <= NOTICE_ROUNDS
      ? state.creator
      : (state.bills.find((bill) => bill.tbValue === round.data - NOTICE_ROUNDS) ?? null);
  if (!entry || !noticeRoundsOf(entry).includes(round.data)) throw notFound("This round has not been written yet");
  const record = await findNotice(services.db, place.owner, {
    cf_number: entry.entryNumber,
    cf_version: version.data,
    round_cnt: round.data,
  });
  if (!record) throw notFound("This round has not been written yet");
  return { place, state, version: version.data, round: round.data, entry, record };
}

/**
 * Why the person signed in may not sign: a signature is the member's own act, so an admin
 * representing them (agent mode) or an editor of their notices does not sign for them.
 */
function refusalOf(viewer: Viewer, other: string | null): string | null {
  if (viewer.agent)
    return `Only ${viewer.agent.name ?? viewer.agent.username} can sign their notice, signed in as themselves: an admin representing a member cannot sign for them.`;
  if (other)
    return `Only ${other} can sign their notice, signed in as themselves: an editor of their notices cannot sign for them.`;
  return null;
}

const methodWords = { typed: "Typed name", drawn: "Drawn" } as const;

/** A round's signature as the page shows it. */
function summaryOf(row: RoundSignatureRow) {
  return {
    line: signedLine({ name: row.signerName, signedAt: row.createdAt }),
    name: row.signerName,
    signedAt: formatDateTime(row.createdAt),
    method: methodWords[row.method],
    download: row.onDownload
      ? "The PDF you download carries your signature."
      : "The PDF you download keeps a line for you to sign by hand.",
    sha256: row.documentSha256,
    recordId: row.id,
  };
}

/** The sign page: what is signed, the consent's words, and the round's signature when it has one. */
export async function signPage(services: AppServices, viewer: Viewer, address: PageAddress, input: Input) {
  const { place, state, version, round, entry } = await roundToSign(services, viewer, address, input);
  const signature = await latestSignature(services.db, entry.id, round);
  const name = roundName(round);
  const mailsNow =
    state.step.round === round && (state.step.kind === "mailing" || state.step.kind === "true-bill-mailing");
  const data = (state.creator?.data ?? {}) as { claimantName?: unknown };
  return {
    title: `Sign the notice: ${name}`,
    causeName: place.cause.name,
    version,
    round,
    roundName: name,
    versionHref: `${place.causeBase}?${new URLSearchParams({ version, ...(place.other ? { username: place.other } : {}) })}`,
    noticeHref: `${roundDocumentBases(place.causeBase, version, place.other).notice}&round=${round}`,
    // Mailing from the app is the member's own, while the round is being mailed.
    mailHref: mailsNow && !place.other ? `${place.causeBase}/mail?${new URLSearchParams({ version })}` : null,
    consent: consentWords({ document: name, version }).split("\n\n"),
    refusal: refusalOf(viewer, place.other),
    defaultName:
      signature?.signerName ??
      ((typeof data.claimantName === "string" && data.claimantName.trim()) || place.owner.name || ""),
    // Signing again starts from the choice the member made last.
    defaultDownload: signature && !signature.onDownload ? ("hand" as const) : ("signed" as const),
    signature: signature ? summaryOf(signature) : null,
  };
}

/** A drawn signature the PDF library can read, or the form's error beside the drawing. */
async function requireReadablePng(base64: string) {
  const readable = await PDFDocument.create()
    .then((doc) => doc.embedPng(base64))
    .then(
      () => true,
      () => false,
    );
  if (!readable) {
    const message = "The drawing could not be read: clear it and draw it again";
    throw invalid(message, { drawing: [message] });
  }
}

const sha256 = (value: string | Uint8Array) => createHash("sha256").update(value).digest("hex");

/**
 * Signs the round's notice for the member signed in: the notice as it stands (unsigned) is
 * rendered and its SHA-256 kept with the signature, the consent's words as shown, a reference to
 * the session (a hash of its id, never the id), the address and the browser; the audit log has
 * it. Answers the record and the sign page to go back to.
 */
export async function signRound(
  services: AppServices,
  viewer: Viewer,
  address: PageAddress,
  input: Input & SignForm,
  meta: { ip: string | null; userAgent: string | null },
): Promise<{ signature: RoundSignatureRow; back: string }> {
  const { place, version, round, entry, record } = await roundToSign(services, viewer, address, input);
  const refusal = refusalOf(viewer, place.other);
  if (refusal) throw forbidden(refusal);
  if (input.method === "drawn") {
    if (!input.imagePng) throw invalid("Draw your signature", { drawing: ["Draw your signature in the box"] });
    await requireReadablePng(input.imagePng);
  }
  const unsigned = await renderNoticePdf(services, record, { signed: "never" });
  const [signature] = await services.db
    .insert(roundSignatures)
    .values({
      userId: place.owner.id,
      entryId: entry.id,
      round,
      method: input.method,
      signerName: input.name,
      imagePng: input.method === "drawn" ? input.imagePng : null,
      consentText: consentWords({ document: roundName(round), version }),
      documentSha256: sha256(unsigned.bytes),
      templateId: unsigned.template.id,
      onDownload: input.onDownload,
      sessionRef: sha256(viewer.session.id),
      ip: meta.ip ?? viewer.session.ip ?? null,
      userAgent: meta.userAgent?.slice(0, 500) ?? null,
    })
    .returning();
  await audit(services.db, actorOf(viewer), "nol.round.sign", "round_signature", signature!.id, {
    causeCode: place.cause.code,
    version,
    round,
    method: input.method,
    documentSha256: signature!.documentSha256,
  });
  return { signature: signature!, back: signPageHref(place.causeBase, version, round) };
}
