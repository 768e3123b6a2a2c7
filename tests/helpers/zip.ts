import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** Every file of a ZIP as Python's zipfile reads it (CRCs checked): its name and bytes. */
export function unzip(bytes: Uint8Array): Map<string, Buffer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "memberhall-archive-read-"));
  const file = path.join(dir, "archive.zip");
  writeFileSync(file, bytes);
  const script = [
    "import base64, json, sys, zipfile",
    "z = zipfile.ZipFile(sys.argv[1])",
    "assert z.testzip() is None",
    "print(json.dumps({i.filename: base64.b64encode(z.read(i)).decode() for i in z.infolist()}))",
  ].join("\n");
  const run = spawnSync("python3", ["-c", script, file], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`Python's zipfile could not read the archive: ${run.stderr}`);
  rmSync(dir, { recursive: true, force: true });
  const read = JSON.parse(run.stdout) as Record<string, string>;
  return new Map(Object.entries(read).map(([name, content]) => [name, Buffer.from(content, "base64")]));
}
