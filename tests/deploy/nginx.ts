import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

const ROOT = path.resolve(import.meta.dirname, "../..");
const NGINX = process.env.NGINX_BIN ?? "nginx";

/**
 * nginx running the site that deploy/render-nginx.mjs renders from the recipe's template.
 * The file around it holds only what Debian's own nginx.conf holds for every site (and keeps
 * the process, its logs and its temporary files in the test's directory), so the site is
 * the one a deployment runs.
 */
export async function startNginx(options: {
  dir: string;
  baseUrl: string;
  servers: string[];
  httpListen: string;
  httpsListen: string;
  certificate: string;
  certificateKey: string;
}) {
  const { dir } = options;
  const site = path.join(dir, "memberhall.conf");
  execFileSync(
    process.execPath,
    [
      path.join(ROOT, "deploy/render-nginx.mjs"),
      ["--base-url", options.baseUrl],
      ["--servers", options.servers.join(",")],
      ["--certificate", options.certificate],
      ["--certificate-key", options.certificateKey],
      ["--http-listen", options.httpListen],
      ["--https-listen", options.httpsListen],
      ["--out", site],
    ].flat(),
  );
  const temp = path.join(dir, "temp");
  mkdirSync(temp);
  const main = path.join(dir, "nginx.conf");
  writeFileSync(
    main,
    `daemon off;
worker_processes 2;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${temp}/body;
  proxy_temp_path ${temp}/proxy;
  fastcgi_temp_path ${temp}/fastcgi;
  uwsgi_temp_path ${temp}/uwsgi;
  scgi_temp_path ${temp}/scgi;
  include ${site};
}
`,
  );
  const args = ["-p", dir, "-e", path.join(dir, "error.log"), "-c", main];
  try {
    execFileSync(NGINX, [...args, "-t", "-q"], { stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    throw new Error(`nginx refuses the rendered site:\n${(error as { stderr?: Buffer }).stderr ?? error}`);
  }
  const child = spawn(NGINX, args, { stdio: ["ignore", "ignore", "pipe"] });
  let output = "";
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  // nginx takes a moment to bind its ports after it starts: the first request waits for both.
  for (const address of [options.httpListen, options.httpsListen]) {
    await accepting(address, () => (child.exitCode === null ? "" : `nginx ended with ${child.exitCode}:\n${output}`));
  }
  return {
    /** The rendered site, as nginx first read it, and where it is. */
    site: readFileSync(site, "utf8"),
    sitePath: site,
    /** What reloads this nginx, as `systemctl reload nginx` does Debian's. */
    reloadCommand: `kill -HUP "$(cat ${dir}/nginx.pid)"`,
    errorLog: () => readFileSync(path.join(dir, "error.log"), "utf8") + output,
    exited,
    /** A graceful stop: the workers finish their requests, then the master ends. */
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGQUIT");
      await exited;
    },
  };
}

/** Resolves once `host:port` accepts a connection; fails when nginx ended or after 15 s. */
async function accepting(address: string, ended: () => string) {
  const [host, port] = [
    address.slice(0, address.lastIndexOf(":")),
    Number(address.slice(address.lastIndexOf(":") + 1)),
  ];
  const deadline = Date.now() + 15_000;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, host);
      socket.once("connect", () => (socket.destroy(), resolve(true)));
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    const why = ended();
    if (why) throw new Error(why);
    if (Date.now() > deadline) throw new Error(`nginx is not accepting on ${address} within 15 s`);
    await sleep(50);
  }
}
