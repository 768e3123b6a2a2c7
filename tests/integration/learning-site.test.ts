import type { AppLoadContext } from "@remix-run/node";
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loader as lrmAuthLoader } from "~/routes/api.login.lrm-auth";
import { doceboLearningSite, makeHandoffCode } from "~/providers/learning-site/docebo.server";
import { hmacHex } from "~/services/state-header.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createUser, newDeviceKey } from "../helpers/users";

const SECRET = "a-shared-secret-with-the-learning-site-0123";
const now = () => Math.floor(Date.now() / 1_000);

describe("learning-site hand-off (GET /api/login/lrm-auth)", () => {
  let database: TestDatabase;
  let context: AppLoadContext;
  const device = newDeviceKey();

  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    context = testContext(database, { LRM_HANDOFF_SECRET: SECRET, LRM_URL: "https://learn.example.org" });
    await createUser(database.db, { username: "learner", email: "learner@example.org" });
  });
  afterAll(async () => {
    await database?.dispose();
  });

  const call = async (query: Record<string, string>, deviceKey: string | null = device.publicKey, ctx = context) => {
    const headers: Record<string, string> = deviceKey ? { "device-key": deviceKey } : {};
    const request = new Request(`http://localhost/api/login/lrm-auth?${new URLSearchParams(query)}`, { headers });
    return (await lrmAuthLoader({ request, params: {}, context: ctx })) as Response;
  };

  it("signs the member in on the state carrier and sends the state", async () => {
    const response = await call(makeHandoffCode(SECRET, "learner", now(), "nonce-0001"));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.state).toMatchObject({ username: "learner", dpk: device.publicKey });
    expect(response.headers.get("state")).toBe(body.state.stateString);
    expect(response.headers.get("state-hash")).toBe(body.state.stateHash);
  });

  it("accepts the member's e-mail address as the subject", async () => {
    expect((await call(makeHandoffCode(SECRET, "Learner@Example.org", now(), "nonce-0002"))).status).toBe(200);
  });

  it("takes an e-mail address only once its owner has confirmed it, and a username first", async () => {
    await createUser(database.db, { username: "squatter", email: "victim@example.org", emailVerifiedAt: null });
    const unconfirmed = await call(makeHandoffCode(SECRET, "victim@example.org", now(), "nonce-0010"));
    expect(unconfirmed.status).toBe(401);

    // The e-mail's owner is written first, so only the ordering can put the username first.
    await createUser(database.db, { username: "other-owner", email: "named@example.org" });
    await createUser(database.db, { username: "named@example.org", email: "named-owner@example.org" });
    const response = await call(makeHandoffCode(SECRET, "named@example.org", now(), "nonce-0011"));
    expect(response.status).toBe(200);
    expect((await response.json()).state.username).toBe("named@example.org");
  });

  it("works once per code", async () => {
    const code = makeHandoffCode(SECRET, "learner", now(), "nonce-0003");
    expect((await call(code)).status).toBe(200);
    const again = await call(code);
    expect(again.status).toBe(401);
    expect((await again.json()).error).toBe("This hand-off code was already used");
  });

  it("refuses an expired code", async () => {
    const response = await call(makeHandoffCode(SECRET, "learner", now() - 301, "nonce-0004"));
    expect(response.status).toBe(401);
    expect((await response.json()).error).toBe("The hand-off code has expired");
  });

  it("refuses a hash made with another secret", async () => {
    const { auth_code } = makeHandoffCode(SECRET, "learner", now(), "nonce-0005");
    expect((await call({ auth_code, hash: hmacHex("another-secret-entirely-000000000", auth_code) })).status).toBe(401);
  });

  it("refuses a member who does not exist", async () => {
    expect((await call(makeHandoffCode(SECRET, "ghost", now(), "nonce-0006"))).status).toBe(401);
  });

  it("answers a missing value, a malformed code or a missing device key with 400", async () => {
    expect((await call({ auth_code: "only-a-code-here" })).status).toBe(400);
    const garbage = "not-base64-json!!";
    expect((await call({ auth_code: garbage, hash: hmacHex(SECRET, garbage) })).status).toBe(400);
    expect((await call(makeHandoffCode(SECRET, "learner", now(), "nonce-0007"), null)).status).toBe(400);
    expect((await call(makeHandoffCode(SECRET, "learner", now(), "nonce-0008"), "02" + "0".repeat(64))).status).toBe(
      400,
    );
  });

  it("is off (503) when no hand-off secret is configured", async () => {
    const off = testContext(database);
    expect((await call(makeHandoffCode(SECRET, "learner", now(), "nonce-0009"), device.publicKey, off)).status).toBe(
      503,
    );
  });
});

describe("SSO into the learning site", () => {
  it("signs a Docebo-style address with the MD5 token of username, time and secret", () => {
    const site = doceboLearningSite({
      handoffSecret: undefined,
      ssoUrl: "https://learn.example.org/lms/index.php?r=site/sso",
      ssoSecret: "s3cret",
    });
    const at = new Date("2030-01-01T00:00:00Z");
    const url = new URL(site.signInUrl("member", new URLSearchParams("id_course=7&token=forged"), at)!);
    const time = String(at.getTime() / 1_000);
    expect(url.origin + url.pathname).toBe("https://learn.example.org/lms/index.php");
    expect(url.searchParams.get("r")).toBe("site/sso");
    expect(url.searchParams.get("id_course")).toBe("7");
    expect(url.searchParams.get("login_user")).toBe("member");
    expect(url.searchParams.get("time")).toBe(time);
    expect(url.searchParams.getAll("token")).toEqual([
      createHash("md5").update(`member,${time},s3cret`).digest("hex").toUpperCase(),
    ]);
  });

  it("has no address when SSO is not configured", () => {
    expect(
      doceboLearningSite({ handoffSecret: undefined, ssoUrl: undefined, ssoSecret: undefined }).signInUrl(
        "m",
        new URLSearchParams(),
      ),
    ).toBeNull();
  });
});
