import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createZip, isSafeEntryName } from "./zip.server";

const dir = mkdtempSync(path.join(os.tmpdir(), "memberhall-zip-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Python's own zipfile reads the archive: each entry's name, size and content (base64), CRCs checked. */
function readWithPython(file: string): { name: string; size: number; content: string }[] {
  const script = [
    "import base64, json, sys, zipfile",
    "z = zipfile.ZipFile(sys.argv[1])",
    "bad = z.testzip()",
    "assert bad is None, bad",
    "print(json.dumps([{'name': i.filename, 'size': i.file_size, 'content': base64.b64encode(z.read(i)).decode()} for i in z.infolist()]))",
  ].join("\n");
  const run = spawnSync("python3", ["-c", script, file], { encoding: "utf8" });
  expect(run.stderr).toBe("");
  return JSON.parse(run.stdout) as { name: string; size: number; content: string }[];
}

describe("the ZIP writer", () => {
  it("writes an archive that unzip and Python's zipfile read back whole, names and bytes", async () => {
    const file = path.join(dir, "whole.zip");
    const json = JSON.stringify({ records: Array.from({ length: 500 }, (_, i) => ({ i, text: "repeated words" })) });
    const random = randomBytes(70_000);
    const zip = await createZip(file);
    await zip.add("README.txt", "What each file is.\n");
    await zip.add("records/profile.json", json);
    await zip.add("documents/notices/random.pdf", random);
    await zip.add("records/empty.json", "");
    await zip.add("records/größe.txt", "ünïcode");
    const size = await zip.close();

    const listing = spawnSync("unzip", ["-l", file], { encoding: "utf8" });
    expect(listing.status).toBe(0);
    for (const name of ["README.txt", "records/profile.json", "documents/notices/random.pdf", "records/empty.json"])
      expect(listing.stdout).toContain(name);
    const integrity = spawnSync("unzip", ["-tq", file], { encoding: "utf8" });
    expect(integrity.stdout).toMatch(/No errors detected/);

    const read = readWithPython(file);
    expect(read.map((e) => e.name)).toEqual([
      "README.txt",
      "records/profile.json",
      "documents/notices/random.pdf",
      "records/empty.json",
      "records/größe.txt",
    ]);
    const content = (name: string) => Buffer.from(read.find((e) => e.name === name)!.content, "base64");
    expect(content("records/profile.json").toString("utf8")).toBe(json);
    expect(content("documents/notices/random.pdf").equals(random)).toBe(true);
    expect(content("records/größe.txt").toString("utf8")).toBe("ünïcode");
    expect(content("records/empty.json").byteLength).toBe(0);
    // Repetitive JSON is deflated; random bytes are stored as they are (no larger than they were).
    expect(size).toBeLessThan(json.length + random.byteLength);
    expect(size).toBeGreaterThan(random.byteLength);
  });

  it("refuses names that would leave the archive's folder, and the same name twice", async () => {
    for (const name of ["../x", "/etc/passwd", "a/../b", "a\\b", "", "a//b", "./a"])
      expect(isSafeEntryName(name)).toBe(false);
    expect(isSafeEntryName("records/profile.json")).toBe(true);
    const zip = await createZip(path.join(dir, "names.zip"));
    await expect(zip.add("../escape.txt", "x")).rejects.toThrow(/Not a file name/);
    await zip.add("a.txt", "x");
    await expect(zip.add("a.txt", "y")).rejects.toThrow(/has a.txt already/);
    await zip.close();
    expect(readWithPython(path.join(dir, "names.zip")).map((e) => e.name)).toEqual(["a.txt"]);
  });

  it("never writes over a file that is there", async () => {
    const file = path.join(dir, "taken.zip");
    await (await createZip(file)).close();
    await expect(createZip(file)).rejects.toThrow(/EEXIST/);
  });
});
