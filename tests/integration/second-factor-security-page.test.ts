import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServices } from "~/context";
import { recoveryCodes, rememberedDevices, sessions, userFactors } from "~/db/schema";
import { newRecoveryCodes } from "~/services/factors/recovery-codes.server";
import { securityChange, securityOverview } from "~/services/factors/security-page.server";
import { requireStepUpForApi } from "~/services/factors/step-up.server";
import { finishLogin } from "~/services/factors/sign-in.server";
import { loadViewer } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { addAuthenticator } from "../helpers/totp";
import { createSession, createUser } from "../helpers/users";

/** The security page's changes of factors (factors/security-page.server.ts), on both drivers. */
describe.each(drivers)("the security page's changes on %s", (driver) => {
  let database: TestDatabase;
  let services: AppServices;
  const request = new Request("http://localhost/profile/security", { method: "POST" });
  const form = (fields: Record<string, string>) => {
    const data = new FormData();
    for (const [name, value] of Object.entries(fields)) data.append(name, value);
    return data;
  };

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    services = testContext(database).app!;
  });
  afterAll(async () => {
    await database.dispose();
  });

  async function memberWithApp(passedMinutesAgo: number) {
    const user = await createUser(database.db);
    const { factorId } = await addAuthenticator(services, user.id, user.username);
    await newRecoveryCodes(services, user.id);
    const remembered = await finishLogin(
      services,
      user.id,
      { ip: "203.0.113.8", userAgent: "test" },
      {
        kind: "totp",
        factorId,
        remember: true,
      },
      null,
    );
    const session = await createSession(database.db, user.id);
    await database.db
      .update(sessions)
      .set({ factorPassedAt: new Date(Date.now() - passedMinutesAgo * 60_000) })
      .where(eq(sessions.id, session.id));
    return { user, viewer: (await loadViewer(database.db, session.id))!, remembered };
  }

  it("tells a member what the community asks of them only: admins are asked, a plain member hears nothing of it", async () => {
    const { viewer: plain } = await memberWithApp(1);
    const adminUser = await createUser(database.db, { admin: true });
    const admin = (await loadViewer(database.db, (await createSession(database.db, adminUser.id)).id))!;
    const asking = (policy: "admin" | "all" | "none") =>
      ({ ...services, config: { ...services.config, mfaRequiredFor: policy, demo: false } }) as AppServices;
    expect((await securityOverview(asking("admin"), plain)).requiredOf).toBeNull();
    expect((await securityOverview(asking("admin"), admin)).requiredOf).toBe("admins");
    expect((await securityOverview(asking("all"), plain)).requiredOf).toBe("everyone");
    expect((await securityOverview(asking("none"), admin)).requiredOf).toBeNull();
  });

  it("removes the authenticator app with a fresh factor: the recovery codes and remembered devices go with it", async () => {
    const { user, viewer } = await memberWithApp(1);
    const done = await securityChange(services, viewer, request, form({ intent: "remove-totp" }));
    expect(done.message).toBe("Your authenticator app is removed.");
    expect(await database.db.select().from(userFactors).where(eq(userFactors.userId, user.id))).toEqual([]);
    expect(await database.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id))).toEqual([]);
    const devices = await database.db.select().from(rememberedDevices).where(eq(rememberedDevices.userId, user.id));
    expect(devices).toHaveLength(1);
    expect(devices[0]!.revokedAt).not.toBeNull();
  });

  it("asks for a fresh factor before removing one, and removes nothing meanwhile", async () => {
    const { user, viewer } = await memberWithApp(30);
    const refused = await securityChange(services, viewer, request, form({ intent: "remove-totp" })).then(
      () => null,
      (thrown: unknown) => thrown as Response,
    );
    expect(refused?.status).toBe(403);
    expect(await refused!.json()).toMatchObject({ code: "step_up_required", stepUp: { postTo: "/profile/security" } });
    expect(await database.db.select().from(userFactors).where(eq(userFactors.userId, user.id))).toHaveLength(1);
  });

  it("forgets a remembered device without a fresh factor, and refuses a form it does not know", async () => {
    const { user, viewer } = await memberWithApp(30);
    const [device] = await database.db.select().from(rememberedDevices).where(eq(rememberedDevices.userId, user.id));
    const done = await securityChange(services, viewer, request, form({ intent: "forget-device", device: device!.id }));
    expect(done.message).toBe("That device will be asked for your second factor again.");
    await expect(securityChange(services, viewer, request, form({ intent: "promote-me" }))).rejects.toMatchObject({
      kind: "invalid",
    });
    await expect(
      securityChange(services, viewer, request, form({ intent: "remove-passkey", factor: "not-an-id" })),
    ).rejects.toMatchObject({ kind: "invalid", message: "Choose a passkey" });
  });

  it("answers an admin API write with a 403 naming where the factor passes, until it is fresh", async () => {
    const stale = await memberWithApp(30);
    let refused: unknown = null;
    try {
      requireStepUpForApi(stale.viewer, "coupon-change");
    } catch (thrown) {
      refused = thrown;
    }
    expect((refused as Response).status).toBe(403);
    expect(await (refused as Response).json()).toMatchObject({
      code: "step_up_required",
      verify: "/profile/security/verify?for=coupon-change",
    });
    const fresh = await memberWithApp(1);
    expect(() => requireStepUpForApi(fresh.viewer, "coupon-change")).not.toThrow();
  });
});
