import { writeFileSync } from "node:fs";
import path from "node:path";
import { generateX25519Identity, identityToRecipient } from "age-encryption";

/**
 * `npm run backup:keygen [-- FILE]`: a new age key pair for encrypted backups (decision 064).
 * The private key goes into FILE (./memberhall-backup-key.txt unless named), readable by its
 * owner only, in age-keygen's own format so that the age command reads it too; a file already
 * there is never overwritten: it may be the only key to the backups made so far. The public key
 * is printed, for BACKUP_ENCRYPTION_RECIPIENT on the server.
 */

const DEFAULT_FILE = "./memberhall-backup-key.txt";

const args = process.argv.slice(2);
if (args.length > 1 || args.some((arg) => arg.startsWith("-"))) {
  process.stderr.write("Usage: npm run backup:keygen [-- FILE] (default ./memberhall-backup-key.txt)\n");
  process.exit(2);
}
const file = args[0] ?? DEFAULT_FILE;

const identity = await generateX25519Identity();
const recipient = await identityToRecipient(identity);
const created = new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
const text = `# created: ${created}\n# public key: ${recipient}\n${identity}\n`;

try {
  // "wx": made here or not at all, so a key file that exists is never replaced.
  writeFileSync(file, text, { mode: 0o600, flag: "wx" });
} catch (error) {
  const reason =
    error.code === "EEXIST" ? "it exists already, and is kept: name another file" : (error.code ?? error.message);
  process.stderr.write(`The key was not written to ${file}: ${reason}.\n`);
  process.exit(2);
}

process.stdout.write(
  [
    `The private key is in ${path.resolve(file)} (readable by you only).`,
    "",
    "Put this line in the server's environment; backups are then encrypted to this key:",
    `BACKUP_ENCRYPTION_RECIPIENT=${recipient}`,
    "",
    "Keep the key file off the server, somewhere safe and backed up (a password manager, an offline copy):",
    "whoever has it can read every backup, and without it no encrypted backup can be restored.",
    "To restore, give it to npm run restore as BACKUP_IDENTITY_FILE=<the file>.",
    "",
  ].join("\n"),
);
