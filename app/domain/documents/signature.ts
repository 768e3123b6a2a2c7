import { z } from "zod";
import { formatDateTime } from "~/lib/format";
import type { DocumentSignature } from "./document-data";

/**
 * The member's electronic signature of a round's notice (docs/decisions/058): the words of the
 * consent they give, the sign form's checks (a drawn signature's PNG among them), and how a
 * document prints the signature.
 */

export const SIGNATURE_METHOD_CHOICES = ["typed", "drawn"] as const;
export type SignatureMethod = (typeof SIGNATURE_METHOD_CHOICES)[number];

/** What the PDF the member downloads carries: their signature, or a line to sign by hand. */
export const DOWNLOAD_CHOICES = ["signed", "hand"] as const;

/** A drawn signature's PNG: at most this many bytes. A pad's drawing is some tens of kilobytes. */
export const MAX_DRAWING_BYTES = 200_000;
/** A drawn signature's width and height in pixels, as a signing pad makes them on a phone or a wide screen. */
export const DRAWING_PIXELS = { minWidth: 60, maxWidth: 3000, minHeight: 30, maxHeight: 1500 } as const;

const DATA_URL_PREFIX = "data:image/png;base64,";
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
/** The longest data URL a drawing within MAX_DRAWING_BYTES makes. */
export const MAX_DRAWING_CHARS = DATA_URL_PREFIX.length + Math.ceil(MAX_DRAWING_BYTES / 3) * 4;

/** What mailing an unsigned round answers, on every path that mails or pays for letters. */
export const SIGN_BEFORE_MAILING = "Sign the notice before it is mailed.";

/** What a signature stands for, in the words the member agrees to; kept with the signature as shown. */
export function consentWords(input: { document: string; version: string }): string {
  return [
    `I agree to sign ${input.document} of “${input.version}” electronically. I mean my electronic signature to be my signature on it, as if I signed it by hand.`,
    "My signature applies to this round's notice only: to each letter of it that this app mails for me, and to the PDF of it I download when I choose to have that one signed.",
    "I do not have to sign electronically: I may instead download the notice with a line to sign, sign it on paper and mail it myself.",
    "I may withdraw this consent, or ask for the notice on paper to sign by hand, at any time before a letter is mailed, by writing to support (the Support link at the foot of every page). Letters already mailed stay as they were signed.",
    "A record of this signature is kept with my account: my name, the time, the session and address I signed from, my browser, and the SHA-256 fingerprint of the notice as it stands now.",
  ].join("\n\n");
}

export type DrawingCheck =
  { ok: true; base64: string; width: number; height: number; bytes: number } | { ok: false; message: string };

/** Reads a big-endian 32-bit number from a PNG's header bytes. */
const uint32 = (bytes: string, at: number) =>
  ((bytes.charCodeAt(at) << 24) |
    (bytes.charCodeAt(at + 1) << 16) |
    (bytes.charCodeAt(at + 2) << 8) |
    bytes.charCodeAt(at + 3)) >>>
  0;

/**
 * A drawn signature as the pad sends it (a PNG data URL), checked without decoding it whole: a
 * PNG by its first bytes and header, no larger than MAX_DRAWING_BYTES, its size within
 * DRAWING_PIXELS. Runs in the browser and on the server alike.
 */
export function readDrawing(dataUrl: string): DrawingCheck {
  if (!dataUrl.startsWith(DATA_URL_PREFIX))
    return { ok: false, message: "The drawing is not a PNG image: draw it again" };
  const base64 = dataUrl.slice(DATA_URL_PREFIX.length);
  if (base64.length % 4 !== 0 || !BASE64.test(base64))
    return { ok: false, message: "The drawing did not arrive whole: draw it again" };
  const bytes = (base64.length / 4) * 3 - (base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0);
  if (bytes > MAX_DRAWING_BYTES)
    return {
      ok: false,
      message: `The drawing is too large (over ${MAX_DRAWING_BYTES / 1000} kB): clear it and draw it again`,
    };
  // The signature (8 bytes), the IHDR chunk's length and type (8), its width and height (8).
  const head = base64.length >= 32 ? atob(base64.slice(0, 32)) : "";
  if (head.length < 24 || PNG_MAGIC.some((byte, i) => head.charCodeAt(i) !== byte) || head.slice(12, 16) !== "IHDR")
    return { ok: false, message: "The drawing is not a PNG image: draw it again" };
  const width = uint32(head, 16);
  const height = uint32(head, 20);
  const p = DRAWING_PIXELS;
  if (width < p.minWidth || width > p.maxWidth || height < p.minHeight || height > p.maxHeight)
    return { ok: false, message: "The drawing's size is not that of a signature: draw it again in the box" };
  return { ok: true, base64, width, height, bytes };
}

/** Control characters and the like: a name is printed, so none of them. */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}]/u;

/** The sign form: how the member signs, their full name, their consent, and what the download carries. */
export const signFormSchema = z
  .object({
    method: z.enum(SIGNATURE_METHOD_CHOICES, {
      errorMap: () => ({ message: "Choose how you sign: type your name or draw your signature" }),
    }),
    name: z
      .string({ required_error: "Type your full name" })
      .trim()
      .min(2, "Type your full name, at least 2 characters")
      .max(120, "Keep your name to 120 characters")
      .refine((name) => /\p{L}/u.test(name), "Type your name in letters")
      .refine((name) => !UNPRINTABLE.test(name), "Type your name without special characters"),
    consent: z.literal("on", {
      errorMap: () => ({ message: "Tick the box to agree to sign electronically, or sign the notice on paper" }),
    }),
    drawing: z.string().max(MAX_DRAWING_CHARS, "The drawing is too large: clear it and draw it again").optional(),
    onDownload: z
      .enum(DOWNLOAD_CHOICES, { errorMap: () => ({ message: "Choose what the PDF you download carries" }) })
      .default("signed"),
  })
  .superRefine((form, ctx) => {
    if (form.method !== "drawn") return;
    if (!form.drawing) {
      ctx.addIssue({
        code: "custom",
        path: ["drawing"],
        message: "Draw your signature in the box, or choose to type your name",
      });
      return;
    }
    const read = readDrawing(form.drawing);
    if (!read.ok) ctx.addIssue({ code: "custom", path: ["drawing"], message: read.message });
  })
  .transform((form) => ({
    method: form.method,
    name: form.name,
    // A typed signature keeps no drawing, whatever the pad held before the choice changed.
    imagePng: form.method === "drawn" && form.drawing ? form.drawing.slice(DATA_URL_PREFIX.length) : null,
    onDownload: form.onDownload === "signed",
  }));

export type SignForm = z.output<typeof signFormSchema>;

/**
 * Which copy of a document is made: one the app mails ("always" signed when the member
 * signed), one the member downloads ("download": signed when they chose so), or the document
 * as it stands before anyone signs ("never", the one whose SHA-256 a signature keeps).
 */
export type SignedCopy = "always" | "download" | "never";

/** A signature as a PDF draws it: the drawing or the typed name, and the line under it that names its record. */
export type PrintedSignature = {
  method: SignatureMethod;
  name: string;
  imagePng: string | null;
  caption: string;
};

/** What a line to sign by hand prints where no signature is. */
export const HAND_SIGNATURE_LINE = "Signed: ______________________________";

/** The line under a signature: "Signed electronically by Cara Creator on Mar 5, 2026, 11:03 AM UTC · record 1a2b3c4d". */
export function signatureCaption(signature: Pick<DocumentSignature, "name" | "signedAt" | "recordId">): string {
  return `Signed electronically by ${signature.name} on ${formatDateTime(signature.signedAt)} · record ${signature.recordId.slice(0, 8)}`;
}

/** The signature a copy of the document prints, or null for a line to sign by hand. */
export function signatureToPrint(
  signature: DocumentSignature | null | undefined,
  copy: SignedCopy,
): PrintedSignature | null {
  if (!signature || copy === "never" || (copy === "download" && !signature.onDownload)) return null;
  return {
    method: signature.method,
    name: signature.name,
    imagePng: signature.method === "drawn" ? signature.imagePng : null,
    caption: signatureCaption(signature),
  };
}

/** "Signed by Cara Creator on Mar 5, 2026, 11:03 AM UTC": a round's signature as the pages state it. */
export function signedLine(signature: { name: string; signedAt: Date | string }): string {
  return `Signed by ${signature.name} on ${formatDateTime(signature.signedAt)}`;
}

/** The sign page of a round: /nol/{form}/{cause}/sign?version=…&round=…. */
export function signPageHref(causeBase: string, version: string, round: number): string {
  return `${causeBase}/sign?${new URLSearchParams({ version, round: String(round) })}`;
}
