import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { SERVER_NODE_FLAGS } from "../../scripts/server-flags.mjs";
import { SERVER_BUNDLE } from "../helpers/server";

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * A built server on a fixed port, started again whenever it ends, as systemd's unit does
 * (Restart=): tests/deploy/restart-server.sh stops it through its pid file, which is what
 * `systemctl restart` does to memberhall@PORT.
 */
export function supervise(port: number, env: Record<string, string>, pidDir: string) {
  let output = "";
  let child: ChildProcess;
  let stopping = false;
  const exits: Array<number | string | null> = [];
  let listening: Promise<void>;
  let exited: Promise<void>;

  const launch = () => {
    child = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER_BUNDLE], {
      cwd: ROOT,
      env: { NODE_ENV: "production", PATH: process.env.PATH ?? "", ...env, PORT: String(port) } as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    writeFileSync(path.join(pidDir, `${port}.pid`), String(child.pid));
    const started = output.length;
    child.stdout!.on("data", (chunk) => (output += chunk));
    child.stderr!.on("data", (chunk) => (output += chunk));
    exited = new Promise((resolve) => child.on("exit", () => resolve()));
    listening = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`port ${port}: not listening within 90 s`)), 90_000);
      child.stdout!.on("data", () => {
        if (output.slice(started).includes("is listening on")) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.on("exit", (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`port ${port}: ended with ${code ?? signal} before listening:\n${output.slice(started)}`));
      });
    });
    listening.catch(() => {});
    child.on("exit", (code, signal) => {
      exits.push(code ?? signal);
      if (!stopping) launch();
    });
  };
  launch();

  return {
    port,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    /** Exit codes of the processes that have ended, in order: a drained server ends with 0. */
    exits: () => [...exits],
    pid: () => child.pid,
    listening: () => listening,
    async stop() {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
export type Supervised = ReturnType<typeof supervise>;
