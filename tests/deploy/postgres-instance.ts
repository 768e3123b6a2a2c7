import { execFile, execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../helpers/server";

/** Debian's PostgreSQL binaries (the newest installed version), or those on PATH. */
function binary(name: string): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(path.join(root, v, "bin", name)))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return versions.length ? path.join(root, versions[0]!, "bin", name) : name;
}

export type PostgresInstance = {
  url: string;
  port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  remove(): Promise<void>;
};

/**
 * A PostgreSQL server of the test's own, in a temporary directory, on a free port: the test
 * stops and starts it, which it must never do to the machine's shared one. initdb and pg_ctl
 * refuse to run as root, so as root they run as the postgres user.
 */
export async function startPostgres(): Promise<PostgresInstance> {
  const asRoot = process.getuid?.() === 0;
  // Asynchronous: the test's load keeps running while PostgreSQL stops and starts.
  const run = (command: string, args: string[]) =>
    new Promise<void>((resolve, reject) =>
      execFile(
        asRoot ? "runuser" : command,
        asRoot ? ["-u", "postgres", "--", command, ...args] : args,
        { timeout: 60_000 },
        (error, _stdout, stderr) => (error ? reject(new Error(`${command}: ${error.message}\n${stderr}`)) : resolve()),
      ),
    );
  const dir = mkdtempSync(path.join(os.tmpdir(), "memberhall-deploy-pg-"));
  if (asRoot) {
    const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
    chownSync(dir, id("-u"), id("-g"));
  }
  const data = path.join(dir, "data");
  const port = await freePort();
  await run(binary("initdb"), ["-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
  const start = () => run(binary("pg_ctl"), ["-D", data, "-o", options, "-l", path.join(dir, "log"), "-w", "start"]);
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    // A fast stop, as a restart for an upgrade does: the connections are ended at once.
    stop: () => run(binary("pg_ctl"), ["-D", data, "-m", "fast", "-w", "stop"]),
    start,
    async remove() {
      await run(binary("pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"]).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
