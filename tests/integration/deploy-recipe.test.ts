import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { envVarNames, parseEnv } from "~/config/env.server";
import { bodyLimitFor } from "~/lib/body-limit.server";
import { SERVER_NODE_FLAGS } from "../../scripts/server-flags.mjs";

const root = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

/** systemd's environment file: KEY=VALUE lines. */
const envFile = () =>
  Object.fromEntries(
    read("deploy/memberhall.env.example")
      .split("\n")
      .filter((line) => /^[A-Z0-9_]+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );

const render = (...args: string[]) =>
  execFileSync(
    process.execPath,
    [path.join(root, "deploy/render-nginx.mjs"), "--base-url", "https://members.example.org", ...args],
    { encoding: "utf8" },
  );

/** A size in nginx's notation (1m, 512k, 2048), in bytes. */
function bytes(size: string): number {
  const unit = { k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[size.slice(-1).toLowerCase()];
  return unit ? Number(size.slice(0, -1)) * unit : Number(size);
}

describe("the production recipe in deploy/", () => {
  it("starts each server with the node flags every other start of the server uses", () => {
    const unit = read("deploy/systemd/memberhall@.service");
    const execStart = /^ExecStart=(.*)$/m.exec(unit)![1]!.split(/\s+/);
    expect(execStart[0]).toMatch(/\/node$/);
    expect(execStart.at(-1)).toMatch(/\/dist\/server\.js$/);
    expect(execStart.slice(1, -1)).toEqual(SERVER_NODE_FLAGS);
    expect(unit).toMatch(/^Environment=PORT=%i$/m);
    expect(unit).toMatch(/^EnvironmentFile=\/etc\/memberhall\/memberhall\.env$/m);
  });

  it("gives a stopping server longer than its own shutdown timeout before systemd kills it", () => {
    const unit = read("deploy/systemd/memberhall@.service");
    const stopSeconds = Number(/^TimeoutStopSec=(\d+)$/m.exec(unit)![1]);
    const shutdownMs = Number(envFile().SHUTDOWN_TIMEOUT_MS);
    expect(stopSeconds * 1_000).toBeGreaterThan(shutdownMs);
    expect(unit).toMatch(/^KillSignal=SIGTERM$/m);
  });

  it("names in its environment file only settings the server reads, and they pass its checks once the secrets are set", () => {
    const env = envFile();
    for (const name of Object.keys(env)) expect(envVarNames, `${name} is not a setting`).toContain(name);
    const parsed = parseEnv({
      ...env,
      SESSION_SECRET: "s".repeat(64),
      STATE_SECRET: "t".repeat(64),
      STATE_PRIVATE_KEY: "1".repeat(64),
    });
    expect(parsed.NODE_ENV).toBe("production");
    expect(parsed.TRUST_PROXY).toEqual(["loopback"]);
    expect(parsed.HOST).toBe("127.0.0.1");
    expect(parsed.BASE_URL).toMatch(/^https:\/\//);
  });

  it("renders an nginx site with every placeholder filled, and refuses a plain-HTTP address", () => {
    const site = render("--servers", "127.0.0.1:3001,127.0.0.1:3002");
    expect(site).not.toMatch(/\{\{|\}\}/);
    expect(site).toMatch(/^\s*server 127\.0\.0\.1:3001 max_fails=\d+ fail_timeout=\d+s;$/m);
    expect(site).toMatch(/^\s*server 127\.0\.0\.1:3002 max_fails=\d+ fail_timeout=\d+s;$/m);
    expect(() =>
      execFileSync(process.execPath, [path.join(root, "deploy/render-nginx.mjs"), "--base-url", "http://x.org"], {
        stdio: "pipe",
      }),
    ).toThrow(/https/);
  });

  it("never lets an answer take a server out of nginx's rotation, only errors and timeouts", () => {
    const site = render("--servers", "127.0.0.1:3001");
    for (const [, codes] of site.matchAll(/proxy_next_upstream ([^;]*);/g)) {
      expect(codes).not.toMatch(/http_5\d\d/);
    }
  });

  it("lets through nginx the bodies the server takes, and no larger", () => {
    const site = render("--servers", "127.0.0.1:3001");
    const sizes = [...site.matchAll(/client_max_body_size (\w+);/g)].map((m) => bytes(m[1]!));
    const [general, importLimit] = sizes;
    expect(general).toBe(bodyLimitFor("/api/anything"));
    expect(importLimit).toBeGreaterThanOrEqual(bodyLimitFor("/members/import"));
    expect(importLimit! - bodyLimitFor("/members/import")).toBeLessThan(1024 ** 2);
  });
});
