import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { newDataDir, startServer, type RunningServer } from "../helpers/server";

const ROOT = path.resolve(import.meta.dirname, "../..");
const ENV = { MFA_REQUIRED_FOR: "admin" };

/** The built server's task `npm run mfa:reset -- USERNAME` (decision 045): the last admin who lost every factor. */
describe("npm run mfa:reset", () => {
  const logIn = (server: RunningServer) =>
    fetch(`${server.url}/login`, {
      method: "POST",
      headers: { origin: server.url },
      body: new URLSearchParams({ login: "admin", password: "memberhall-demo" }),
      redirect: "manual",
    });

  function reset(dataDir: string, username: string) {
    return spawnSync(process.execPath, ["scripts/mfa-reset.mjs", username], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? "",
        NODE_ENV: "production",
        DEMO: "1",
        DATA_DIR: dataDir,
        LOG_LEVEL: "warn",
        ...ENV,
      },
      encoding: "utf8",
    });
  }

  it("removes an admin's factors from the server's shell, so they sign in with the password and set one up again", async () => {
    const dataDir = newDataDir({});
    try {
      let server = await startServer({ dataDir, env: ENV });
      try {
        const cookie = (await logIn(server)).headers.getSetCookie()[0]!.split(";")[0]!;
        const page = await (await fetch(`${server.url}/profile/security/totp`, { headers: { cookie } })).text();
        const sealed = /name="sealed" value="([^"]+)"/.exec(page)?.[1];
        const secret = /<code>([A-Z2-7 ]{30,})<\/code>/.exec(page)?.[1];
        expect(sealed && secret).toBeTruthy();
        const code = new TOTP({ secret: Secret.fromBase32(secret!.replace(/\s+/g, "")) }).generate();
        const set = await fetch(`${server.url}/profile/security/totp`, {
          method: "POST",
          headers: { cookie, origin: server.url },
          body: new URLSearchParams({ sealed: sealed!, code }),
          redirect: "manual",
        });
        expect(set.status).toBe(302);
        const withFactor = await logIn(server);
        expect(withFactor.headers.get("location")).toBe("/login/factor");
      } finally {
        await server.stop();
      }

      const unknown = reset(dataDir, "nobody-here");
      expect(unknown.status).toBe(2);
      expect(unknown.stderr).toContain("No member is named nobody-here.");
      const done = reset(dataDir, "ADMIN");
      expect(done.status, done.stderr).toBe(0);
      expect(done.stdout).toContain("The second factors of admin are removed and their sessions ended");

      server = await startServer({ dataDir, env: ENV });
      try {
        const again = await logIn(server);
        expect(again.headers.get("location")).toBe("/redirect-login-success");
        const cookie = again.headers
          .getSetCookie()
          .find((c) => c.startsWith("mh_session="))!
          .split(";")[0]!;
        const admin = await fetch(`${server.url}/admin`, { headers: { cookie }, redirect: "manual" });
        expect(admin.headers.get("location")).toMatch(/^\/profile\/security\?redirectTo=/);
      } finally {
        await server.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
