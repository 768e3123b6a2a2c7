import type { AppLoadContext } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessions } from "~/db/schema";
import { loader as recheckLoader } from "~/routes/api.login.recheck";
import { action as verifyAction } from "~/routes/profile.security.verify";
import { getViewer, loadViewer, sessionState, siteCookies } from "~/services/session.server";
import { encodeState, hmacHex } from "~/services/state-header.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { formOf } from "../helpers/requests";
import { signedRequest } from "../helpers/state";
import { addAuthenticator } from "../helpers/totp";
import { createSession, createUser, newDeviceKey } from "../helpers/users";

async function status(response: Promise<Response>): Promise<number> {
  try {
    return (await response).status;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    throw thrown;
  }
}

describe("state headers (DESIGN.md §4)", () => {
  let database: TestDatabase;
  let context: AppLoadContext;
  const device = newDeviceKey();
  let state: { stateString: string; stateHash: string };
  let sessionId: string;

  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    context = testContext(database);
    const user = await createUser(database.db, { username: "framed" });
    const session = await createSession(database.db, user.id, device.publicKey, "state");
    sessionId = session.id;
    const viewer = await loadViewer(database.db, session.id);
    state = sessionState(viewer!, context.app!.config);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  const config = () => context.app!.config;
  const call = (request: Request) => status(recheckLoader({ request, params: {}, context }) as Promise<Response>);
  /** A recheck request signed as the browser signs it, by this test's device unless told otherwise. */
  const signed = (state: string, hash: string, options: { devicePrivateKey?: string; signPath?: string } = {}) =>
    signedRequest("/api/login/recheck", {
      state,
      hash,
      devicePrivateKey: device.privateKey,
      config: config(),
      ...options,
    });
  /** A new member's session on the state carrier, and the state the server signed for it. */
  const stateSession = async (devicePublicKey = device.publicKey) => {
    const user = await createUser(database.db);
    const session = await createSession(database.db, user.id, devicePublicKey, "state");
    return { session, own: sessionState((await loadViewer(database.db, session.id))!, config()) };
  };
  const checkedAtOf = async (id: string) =>
    (await database.db.select().from(sessions).where(eq(sessions.id, id)))[0]!.loginCheckedAt;
  const checkedAt = () => checkedAtOf(sessionId);

  it("lets a correctly signed request through and answers with the fresh state", async () => {
    const request = signed(state.stateString, state.stateHash);
    const response = (await recheckLoader({ request, params: {}, context })) as Response;
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.state.username).toBe("framed");
    // The check time moved, so the state changed, so new headers come back.
    expect(response.headers.get("state")).toBe(body.state.stateString);
    expect(response.headers.get("state-hash")).toBe(hmacHex(config().stateSecret, body.state.stateString));
    state = body.state;
  });

  it("refuses a tampered state with 401 and changes nothing", async () => {
    const before = await checkedAt();
    const tampered = state.stateString.replace(encodeURIComponent('"admin":false'), encodeURIComponent('"admin":true'));
    expect(tampered).not.toBe(state.stateString);
    const request = signed(tampered, state.stateHash);
    expect(await call(request)).toBe(401);
    expect(await checkedAt()).toEqual(before);
  });

  it("refuses a wrong state-hash", async () => {
    const hash = state.stateHash.replace(/^./, (c) => (c === "0" ? "1" : "0"));
    const request = signed(state.stateString, hash);
    const before = await checkedAt();
    expect(await call(request)).toBe(401);
    expect(await checkedAt()).toEqual(before);
  });

  it("refuses a signature made with another device's key", async () => {
    const other = newDeviceKey();
    const request = signed(state.stateString, state.stateHash, { devicePrivateKey: other.privateKey });
    expect(await call(request)).toBe(401);
  });

  it("refuses a signature made for another path", async () => {
    const request = signed(state.stateString, state.stateHash, { signPath: "/api/config" });
    const before = await checkedAt();
    expect(await call(request)).toBe(401);
    expect(await checkedAt()).toEqual(before);
  });

  it("refuses a signature made for another method", async () => {
    const request = signed(state.stateString, state.stateHash);
    const sig = request.headers.get("state-sig")!;
    const post = new Request(request.url, {
      method: "POST",
      headers: { state: state.stateString, "state-hash": state.stateHash, "state-sig": sig },
    });
    expect(await call(post)).toBe(401);
  });

  it("refuses a request with only some of the headers", async () => {
    const request = new Request("http://localhost/api/login/recheck", { headers: { state: state.stateString } });
    expect(await call(request)).toBe(401);
  });

  it("refuses a validly signed state whose session was revoked", async () => {
    const { session, own } = await stateSession();
    await database.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, session.id));
    const request = signed(own.stateString, own.stateHash);
    const before = await checkedAtOf(session.id);
    expect(await call(request)).toBe(401);
    expect(await checkedAtOf(session.id)).toEqual(before);
  });

  it("refuses a validly signed state whose session expired", async () => {
    const { session, own } = await stateSession();
    await database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(eq(sessions.id, session.id));
    const request = signed(own.stateString, own.stateHash);
    const before = await checkedAtOf(session.id);
    expect(await call(request)).toBe(401);
    expect(await checkedAtOf(session.id)).toEqual(before);
  });

  it("refuses a state that names another session's device", async () => {
    const { own } = await stateSession(newDeviceKey().publicKey);
    // A state the server signed, but carrying this device's key instead of the session's.
    const forged = encodeState({ ...own, dpk: device.publicKey }, config().stateSecret);
    const request = signed(forged.state, forged.hash);
    expect(await call(request)).toBe(401);
  });

  it("answers 401 to a request with neither cookie nor state", async () => {
    expect(await call(new Request("http://localhost/api/login/recheck"))).toBe(401);
  });
});

/**
 * Where a second factor is required of admins, an admin without one, or whose session has not
 * passed it, is no admin to any page (decision 045): the recheck's state says the same.
 */
describe("the recheck of an admin held back by the second factor", () => {
  let database: TestDatabase;
  let context: AppLoadContext;

  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    context = testContext(database, { MFA_REQUIRED_FOR: "admin" });
  });
  afterAll(async () => {
    await database?.dispose();
  });

  const recheckRequest = (cookie: string) => new Request("http://localhost/api/login/recheck", { headers: { cookie } });
  /** What the recheck says of the admin: in its body, and in the state headers it sends. */
  async function recheck(cookie: string) {
    const response = (await recheckLoader({ request: recheckRequest(cookie), params: {}, context })) as Response;
    expect(response.status).toBe(200);
    const { state } = (await response.json()) as { state: { admin: boolean; stateString: string } };
    const header = response.headers.get("state");
    if (header) expect(header).toBe(state.stateString);
    expect(state.stateString).toContain(encodeURIComponent(`"admin":${state.admin}`));
    return state.admin;
  }
  /** What every page sees of them (the root's navigation, requireAdmin). */
  const pagesSee = async (cookie: string) => (await getViewer(recheckRequest(cookie), context.app!))!.member.admin;

  it("answers admin: false before the factor is set up and passed, as every page sees them, then true", async () => {
    const services = context.app!;
    const user = await createUser(database.db, { admin: true });
    const session = await createSession(database.db, user.id);
    const cookie = await siteCookies(services.config).session.serialize(session.id);
    expect([await recheck(cookie), await pagesSee(cookie)]).toEqual([false, false]);

    const { app } = await addAuthenticator(services, user.id, user.username);
    expect([await recheck(cookie), await pagesSee(cookie)]).toEqual([false, false]);

    const verify = new Request("http://localhost/profile/security/verify", {
      method: "POST",
      headers: { cookie },
      body: formOf({ stepUpCode: app.at(Date.now()), redirectTo: "/admin" }),
    });
    const passed = (await verifyAction({ request: verify, params: {}, context })) as Response;
    expect(passed.status).toBe(302);
    expect([await recheck(cookie), await pagesSee(cookie)]).toEqual([true, true]);
  });
});
