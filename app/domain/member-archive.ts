import { z } from "zod";

/** The rules of a member's download of their own data (decision 050), without I/O. */

/** Days the e-mailed link works and the file is kept. */
export const ARCHIVE_DAYS = 7;

/** The profile's form that asks for an archive. */
export const dataArchiveFormSchema = z.object({ intent: z.literal("data-archive") });

/** The e-mailed link's code: 32 random bytes in base64url. */
export const archiveTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

/** The UTC day a time falls on, as the archive's row keeps it: "2026-11-28". */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/** When a member who asked on `at`'s day may ask again: the next midnight, UTC. */
export function nextArchiveAt(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1));
}

/** The name the browser saves the archive under. */
export const archiveDownloadName = (createdAt: Date) => `my-data-${utcDay(createdAt)}.zip`;

export type ArchiveFile = { name: string; about: string };

/** README.txt: what the archive is and what each of its files holds. */
export function archiveReadme(input: {
  community: string;
  username: string;
  madeAt: Date;
  files: readonly ArchiveFile[];
  missing: readonly ArchiveFile[];
}): string {
  const lines = [
    `Your data at ${input.community}`,
    "",
    `Everything ${input.community} holds about the member ${input.username}, as it stood on`,
    `${input.madeAt.toISOString().replace("T", " ").slice(0, 16)} UTC. The records are JSON files (UTF-8), one per kind`,
    "of record, each a list of rows with their dates in ISO 8601 (UTC) and amounts in cents.",
    "Secrets are left out: your password's hash, the keys of your passkeys and authenticator app,",
    "the codes of e-mailed links and the identifiers of your sessions.",
    "",
    "Files:",
    ...input.files.map((f) => `- ${f.name}: ${f.about}`),
  ];
  if (input.missing.length > 0)
    lines.push(
      "",
      "Not included (ask again tomorrow, or write to us):",
      ...input.missing.map((f) => `- ${f.name}: ${f.about}`),
    );
  return lines.join("\n") + "\n";
}
