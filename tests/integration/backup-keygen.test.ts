import { spawnSync } from "node:child_process";
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseEnv } from "~/config/env.server";
import { decryptToFile, encryptFile, identityFrom } from "~/services/backups/encryption.server";

/**
 * `npm run backup:keygen` (scripts/backup-keygen.mjs): the operator's key pair for encrypted
 * backups, the private half in age-keygen's file format, the public half printed for the server.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const dir = mkdtempSync(path.join(os.tmpdir(), "memberhall-keygen-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const keygen = (...args: string[]) =>
  spawnSync(process.execPath, [path.join(ROOT, "scripts/backup-keygen.mjs"), ...args], { cwd: dir, encoding: "utf8" });

describe("npm run backup:keygen", () => {
  it("writes the private key in age-keygen's format, readable by its owner only, and prints the public key's line", () => {
    const made = keygen();

    expect(made.status, made.stderr).toBe(0);
    const file = path.join(dir, "memberhall-backup-key.txt");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const lines = readFileSync(file, "utf8").split("\n");
    expect(lines[0]).toMatch(/^# created: \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(lines[1]).toMatch(/^# public key: age1[a-z0-9]{58}$/);
    expect(lines[2]).toMatch(/^AGE-SECRET-KEY-1[A-Z0-9]{58}$/);
    const recipient = lines[1]!.slice("# public key: ".length);
    expect(made.stdout).toContain(`\nBACKUP_ENCRYPTION_RECIPIENT=${recipient}\n`);
    expect(made.stdout).toMatch(/Keep the key file off the server/);
    // The server takes the printed line as its setting.
    expect(parseEnv({ BACKUP_ENCRYPTION_RECIPIENT: recipient }).BACKUP_ENCRYPTION_RECIPIENT).toBe(recipient);
  });

  it("makes a key pair that a backup is encrypted to and decrypted with, through BACKUP_IDENTITY_FILE", async () => {
    const file = path.join(dir, "pair.txt");
    const made = keygen(file);
    expect(made.status, made.stderr).toBe(0);
    const recipient = /^BACKUP_ENCRYPTION_RECIPIENT=(age1\S+)$/m.exec(made.stdout)![1]!;
    const plain = path.join(dir, "memberhall-2026-12-07T031700Z-daily.dump");
    writeFileSync(plain, Buffer.concat([Buffer.from("PGDMP"), Buffer.alloc(200_000, 7)]));

    await encryptFile(plain, `${plain}.age`, recipient);
    const identity = await identityFrom({ BACKUP_IDENTITY_FILE: file });
    await decryptToFile(createReadStream(`${plain}.age`), `${plain}.out`, identity!);

    expect(readFileSync(`${plain}.out`).equals(readFileSync(plain))).toBe(true);
  });

  it("never overwrites a key file that exists, and takes one file at most", () => {
    const file = path.join(dir, "kept.txt");
    writeFileSync(file, "the only key to last year's backups\n");

    const again = keygen(file);

    expect(again.status).toBe(2);
    expect(again.stderr.trim()).toBe(
      `The key was not written to ${file}: it exists already, and is kept: name another file.`,
    );
    expect(readFileSync(file, "utf8")).toBe("the only key to last year's backups\n");
    expect(keygen("a.txt", "b.txt").status).toBe(2);
  });
});
