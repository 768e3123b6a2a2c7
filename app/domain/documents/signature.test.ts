import { deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { SIGNATURE_METHODS } from "~/db/schema";
import { formatDateTime } from "~/lib/format";
import type { DocumentSignature } from "./document-data";
import {
  consentWords,
  DRAWING_PIXELS,
  MAX_DRAWING_BYTES,
  readDrawing,
  SIGNATURE_METHOD_CHOICES,
  signatureCaption,
  signatureToPrint,
  signFormSchema,
  type SignedCopy,
} from "./signature";

/** CRC-32 of PNG chunks. */
function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real greyscale PNG of the size, `extra` bytes of padding chunk making it larger. */
function png(width: number, height: number, extra = 0): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(0, 9); // greyscale
  const rows = Buffer.alloc((width + 1) * height, 0xff);
  for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    ...(extra > 0 ? [chunk("tEXt", Buffer.alloc(extra, 0x61))] : []),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const dataUrl = (bytes: Buffer, type = "image/png") => `data:${type};base64,${bytes.toString("base64")}`;

const typed = { method: "typed", name: "Cara Creator", consent: "on", onDownload: "signed" };

/** The first message the schema gives for a field, or undefined when it takes the form. */
function errorOf(form: Record<string, unknown>, field: string): string | undefined {
  const parsed = signFormSchema.safeParse(form);
  if (parsed.success) return undefined;
  return parsed.error.issues.find((issue) => issue.path[0] === field)?.message;
}

describe("the consent to sign electronically", () => {
  const words = consentWords({ document: "Round 1 Notice of Liability", version: "Spring 2026" });

  it("names what is signed: this round's notice of this version, each letter mailed and the PDF downloaded", () => {
    expect(words).toContain("Round 1 Notice of Liability of “Spring 2026”");
    expect(words).toContain("this round's notice only");
    expect(words).toContain("each letter of it that this app mails for me");
    expect(words).toContain("the PDF of it I download");
  });

  it("says the member may sign on paper instead, and how to withdraw the consent or ask for paper", () => {
    expect(words).toContain("I do not have to sign electronically");
    expect(words).toContain("sign it on paper");
    expect(words).toMatch(/withdraw this consent, or ask for the notice on paper .* by writing to support/);
  });

  it("says the intent to sign and what record is kept", () => {
    expect(words).toContain("I mean my electronic signature to be my signature on it");
    expect(words).toContain("the SHA-256 fingerprint of the notice");
  });
});

describe("the sign form", () => {
  it("offers the methods the records keep", () => {
    expect([...SIGNATURE_METHOD_CHOICES].sort()).toEqual([...SIGNATURE_METHODS].sort());
  });

  it("takes a typed signature: the name trimmed, no drawing, the download signed unless the hand line is chosen", () => {
    expect(signFormSchema.parse({ ...typed, name: "  Cara Creator " })).toEqual({
      method: "typed",
      name: "Cara Creator",
      imagePng: null,
      onDownload: true,
    });
    expect(signFormSchema.parse({ ...typed, onDownload: "hand" }).onDownload).toBe(false);
    expect(signFormSchema.parse({ ...typed, onDownload: undefined }).onDownload).toBe(true);
  });

  it("keeps no drawing when the name is typed, whatever the pad held", () => {
    expect(signFormSchema.parse({ ...typed, drawing: dataUrl(png(300, 100)) }).imagePng).toBeNull();
  });

  it("refuses a form without the consent ticked", () => {
    expect(errorOf({ ...typed, consent: undefined }, "consent")).toBe(
      "Tick the box to agree to sign electronically, or sign the notice on paper",
    );
    expect(errorOf({ ...typed, consent: "off" }, "consent")).toBeDefined();
  });

  it.each([
    [undefined, "Type your full name"],
    ["C", "Type your full name, at least 2 characters"],
    ["   C  ", "Type your full name, at least 2 characters"],
    ["x".repeat(121), "Keep your name to 120 characters"],
    ["12345", "Type your name in letters"],
    ["Cara\u0000Creator", "Type your name without special characters"],
    ["Cara\u202eCreator", "Type your name without special characters"],
  ])("refuses the name %j: %s", (name, message) => {
    expect(errorOf({ ...typed, name }, "name")).toBe(message);
  });

  it("takes names of 2 and of 120 characters, in any script", () => {
    expect(errorOf({ ...typed, name: "Jo" }, "name")).toBeUndefined();
    expect(errorOf({ ...typed, name: "é".repeat(120) }, "name")).toBeUndefined();
    expect(errorOf({ ...typed, name: "Zoë Łukasiewicz-Ōta" }, "name")).toBeUndefined();
  });

  it("refuses a method it does not know, and a missing one", () => {
    expect(errorOf({ ...typed, method: "stamped" }, "method")).toBe(
      "Choose how you sign: type your name or draw your signature",
    );
    expect(errorOf({ ...typed, method: undefined }, "method")).toBeDefined();
  });

  it("takes a drawn signature as its PNG's base64", () => {
    const bytes = png(400, 120);
    const form = signFormSchema.parse({ ...typed, method: "drawn", drawing: dataUrl(bytes) });
    expect(form).toMatchObject({ method: "drawn", name: "Cara Creator" });
    expect(Buffer.from(form.imagePng!, "base64").equals(bytes)).toBe(true);
  });

  it("asks for the drawing when the signature is drawn and the pad is empty", () => {
    expect(errorOf({ ...typed, method: "drawn" }, "drawing")).toBe(
      "Draw your signature in the box, or choose to type your name",
    );
  });
});

describe("a drawn signature's PNG", () => {
  it("is read from its header: its size and bytes", () => {
    const bytes = png(500, 160);
    expect(readDrawing(dataUrl(bytes))).toMatchObject({ ok: true, width: 500, height: 160, bytes: bytes.length });
  });

  it.each([
    ["a JPEG's data URL", dataUrl(Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...Buffer.alloc(40)]), "image/jpeg")],
    ["JPEG bytes said to be a PNG", dataUrl(Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...Buffer.alloc(40)]))],
    ["a GIF said to be a PNG", dataUrl(Buffer.concat([Buffer.from("GIF89a"), Buffer.alloc(40)]))],
    ["text", "hello"],
  ])("refuses %s as not a PNG", (_, url) => {
    expect(readDrawing(url)).toEqual({ ok: false, message: "The drawing is not a PNG image: draw it again" });
  });

  it("refuses base64 that is cut or holds other characters", () => {
    const whole = dataUrl(png(300, 100));
    expect(readDrawing(whole.slice(0, -1))).toMatchObject({ ok: false });
    expect(readDrawing(whole.replace("A", "*"))).toMatchObject({ ok: false });
  });

  it("takes a drawing up to the size cap and refuses one past it", () => {
    const base = png(300, 100).length;
    const at = png(300, 100, MAX_DRAWING_BYTES - base - 12);
    expect(at.length).toBe(MAX_DRAWING_BYTES);
    expect(readDrawing(dataUrl(at)).ok).toBe(true);
    const over = png(300, 100, MAX_DRAWING_BYTES - base - 11);
    expect(readDrawing(dataUrl(over))).toMatchObject({ ok: false, message: expect.stringContaining("too large") });
    expect(errorOf({ ...typed, method: "drawn", drawing: dataUrl(over) }, "drawing")).toContain("too large");
  });

  it.each([
    [DRAWING_PIXELS.minWidth - 1, 100],
    [DRAWING_PIXELS.maxWidth + 1, 100],
    [300, DRAWING_PIXELS.minHeight - 1],
    [300, DRAWING_PIXELS.maxHeight + 1],
  ])("refuses a drawing of %i × %i pixels", (width, height) => {
    expect(readDrawing(dataUrl(png(width, height)))).toEqual({
      ok: false,
      message: "The drawing's size is not that of a signature: draw it again in the box",
    });
  });

  it("takes the smallest and largest sizes allowed", () => {
    expect(readDrawing(dataUrl(png(DRAWING_PIXELS.minWidth, DRAWING_PIXELS.minHeight))).ok).toBe(true);
    expect(readDrawing(dataUrl(png(DRAWING_PIXELS.maxWidth, DRAWING_PIXELS.maxHeight))).ok).toBe(true);
  });
});

describe("the signature a copy of the notice prints", () => {
  const signature: DocumentSignature = {
    method: "typed",
    name: "Cara Creator",
    imagePng: null,
    signedAt: "2026-03-05T11:03:00Z",
    recordId: "1a2b3c4d-0000-4000-8000-000000000000",
    onDownload: true,
  };
  const handLine = { ...signature, onDownload: false };

  it("names the signer, the time and the record's first 8 characters under the signature", () => {
    const caption = signatureCaption(signature);
    expect(caption).toBe(
      `Signed electronically by Cara Creator on ${formatDateTime("2026-03-05T11:03:00Z")} · record 1a2b3c4d`,
    );
    expect(caption).toMatch(/ on Mar 5, 2026, 11:03\sAM UTC · /);
  });

  it.each<[string, DocumentSignature | null, SignedCopy, boolean]>([
    ["a mailed letter, signed", signature, "always", true],
    ["a mailed letter, the member chose a hand line for the download", handLine, "always", true],
    ["a download, the member chose it signed", signature, "download", true],
    ["a download, the member chose a hand line", handLine, "download", false],
    ["the notice as it stood before signing", signature, "never", false],
    ["any copy of a round not signed", null, "always", false],
  ])("%s", (_, given, copy, printed) => {
    const result = signatureToPrint(given, copy);
    expect(result !== null).toBe(printed);
    if (result) expect(result).toMatchObject({ method: "typed", name: "Cara Creator", imagePng: null });
  });

  it("prints a drawn signature's image, and never an image for a typed one", () => {
    const drawn = { ...signature, method: "drawn" as const, imagePng: "iVBORw0KGgo=" };
    expect(signatureToPrint(drawn, "always")?.imagePng).toBe("iVBORw0KGgo=");
    expect(signatureToPrint({ ...signature, imagePng: "iVBORw0KGgo=" }, "always")?.imagePng).toBeNull();
  });
});
