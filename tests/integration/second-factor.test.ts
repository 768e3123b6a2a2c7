import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServices } from "~/context";
import { recoveryCodes, userFactors, users, webauthnChallenges } from "~/db/schema";
import { RECOVERY_ALPHABET } from "~/domain/second-factor";
import {
  checkTypedCode,
  CODE_FAILURES,
  confirmTotp,
  totpSetup,
  USED_RECOVERY_CODE_MESSAGE,
  USED_TOTP_CODE_MESSAGE,
  WRONG_CODE_MESSAGE,
} from "~/services/factors/codes.server";
import { newRecoveryCodes } from "~/services/factors/recovery-codes.server";
import {
  addPasskey,
  authenticationOptions,
  PASSKEY_FAILED_MESSAGE,
  passkeyAnswerSchema,
  registrationOptions,
  relyingParty,
  removePasskey,
  verifyPasskey,
} from "~/services/factors/passkeys.server";
import { factorOverview } from "~/services/factors/records.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { addAuthenticator, authenticatorApp, clearOfStepEnd } from "../helpers/totp";
import { createUser } from "../helpers/users";
import { postedAnswer, SoftwareAuthenticator } from "../helpers/webauthn";

const MINUTE = 60_000;

describe.each(drivers)("second factors on %s", (driver) => {
  let database: TestDatabase;
  let services: AppServices;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    services = testContext(database).app!;
  });

  afterAll(async () => {
    await database.dispose();
  });

  const factorsOf = (userId: string) => database.db.select().from(userFactors).where(eq(userFactors.userId, userId));
  const codesOf = (userId: string) => database.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, userId));

  describe("authenticator codes", () => {
    it("saves the authenticator app when its first code is right, with the secret sealed", async () => {
      const user = await createUser(database.db);
      const setup = await totpSetup(services, user);
      const secret = setup.secret.replace(/\s+/g, "");
      expect(setup.secret).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);
      expect(setup.uri).toContain(`secret=${secret}`);
      expect(setup.sealed).not.toContain(secret);

      await clearOfStepEnd();
      const factorId = await confirmTotp(services, user.id, {
        sealed: setup.sealed,
        code: authenticatorApp(setup.secret).at(Date.now()),
      });

      const rows = await factorsOf(user.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ id: factorId, kind: "totp", credentialId: null, publicKey: null });
      expect(rows[0]!.secretSealed).toBeTruthy();
      expect(rows[0]!.secretSealed).not.toContain(secret);
      expect(JSON.stringify(rows[0])).not.toContain(secret);
      expect(Number(rows[0]!.lastStep)).toBe(Math.floor(Date.now() / 30_000));
      expect((await factorOverview(database.db, user.id)).totp?.id).toBe(factorId);
    });

    it("refuses a wrong first code with the field's error and stores nothing", async () => {
      const user = await createUser(database.db);
      const setup = await totpSetup(services, user);
      const wrong = authenticatorApp(setup.secret).wrongAt(Date.now());

      await expect(confirmTotp(services, user.id, { sealed: setup.sealed, code: wrong })).rejects.toMatchObject({
        kind: "invalid",
        fieldErrors: { code: [WRONG_CODE_MESSAGE] },
      });
      expect(await factorsOf(user.id)).toEqual([]);
    });

    it("refuses a set-up form whose sealed secret was changed", async () => {
      const user = await createUser(database.db);
      const setup = await totpSetup(services, user);
      const other = await totpSetup(services, user);
      // Another set-up's secret under this one's nonce: sealed by no one.
      const [version, nonce] = setup.sealed.split(".");
      const tampered = [version, nonce, ...other.sealed.split(".").slice(2)].join(".");
      await expect(
        confirmTotp(services, user.id, { sealed: tampered, code: authenticatorApp(setup.secret).at(Date.now()) }),
      ).rejects.toMatchObject({ kind: "invalid" });
      expect(await factorsOf(user.id)).toEqual([]);
    });

    it("refuses a set-up form made for another member", async () => {
      const user = await createUser(database.db);
      const stranger = await createUser(database.db);
      const setup = await totpSetup(services, stranger);
      await expect(
        confirmTotp(services, user.id, { sealed: setup.sealed, code: authenticatorApp(setup.secret).at(Date.now()) }),
      ).rejects.toMatchObject({ kind: "invalid", message: "This set-up has expired. Start again." });
      expect(await factorsOf(user.id)).toEqual([]);
    });

    it("refuses a second authenticator app and keeps the first", async () => {
      const user = await createUser(database.db);
      const first = await addAuthenticator(services, user.id, user.username);
      const [kept] = await factorsOf(user.id);
      const second = await totpSetup(services, user);

      await expect(
        confirmTotp(services, user.id, { sealed: second.sealed, code: authenticatorApp(second.secret).at(Date.now()) }),
      ).rejects.toMatchObject({ kind: "invalid", message: expect.stringMatching(/already set up/) });
      const rows = await factorsOf(user.id);
      expect(rows.map((row) => row.id)).toEqual([first.factorId]);
      expect(rows[0]!.secretSealed).toBe(kept!.secretSealed);
    });

    it("accepts a current code once and refuses the same code again, saying it was used", async () => {
      const user = await createUser(database.db);
      const { factorId, app } = await addAuthenticator(services, user.id, user.username);
      await clearOfStepEnd();
      const now = Date.now();
      const code = app.at(now);

      expect(await checkTypedCode(services, user.id, code)).toEqual({ kind: "totp", factorId });
      const [after] = await factorsOf(user.id);
      expect(Number(after!.lastStep)).toBe(Math.floor(now / 30_000));

      await expect(checkTypedCode(services, user.id, code)).rejects.toMatchObject({
        kind: "invalid",
        fieldErrors: { code: [USED_TOTP_CODE_MESSAGE] },
      });
      expect(USED_TOTP_CODE_MESSAGE).toMatch(/^That code has been used already\./);
      const [again] = await factorsOf(user.id);
      expect(again!.lastStep).toBe(after!.lastStep);
    });

    it("takes a time step once when two requests bring the same code together", async () => {
      const user = await createUser(database.db);
      const { app } = await addAuthenticator(services, user.id, user.username);
      await clearOfStepEnd();
      const code = app.at(Date.now());
      const results = await Promise.allSettled([
        checkTypedCode(services, user.id, code),
        checkTypedCode(services, user.id, code),
      ]);
      expect(results.map((result) => result.status).sort()).toEqual(["fulfilled", "rejected"]);
    });

    it("refuses a code shown five minutes before it is typed", async () => {
      const user = await createUser(database.db);
      const { factorId, app } = await addAuthenticator(services, user.id, user.username);
      // Checked ten minutes on, so that the code's step is later than any step used so far:
      // only its age refuses it.
      const typedAt = Date.now() + 10 * MINUTE;
      await expect(checkTypedCode(services, user.id, app.at(typedAt - 5 * MINUTE), typedAt)).rejects.toMatchObject({
        kind: "invalid",
      });
      expect(await checkTypedCode(services, user.id, app.at(typedAt), typedAt)).toEqual({ kind: "totp", factorId });
    });

    it("holds back even a right code after five wrong ones", async () => {
      const user = await createUser(database.db);
      const { app } = await addAuthenticator(services, user.id, user.username);
      const [before] = await factorsOf(user.id);
      // Failures count in fixed windows: all of them fall in one.
      const window = CODE_FAILURES.windowSeconds * 1000;
      const left = window - (Date.now() % window);
      if (left < 5_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
      for (let i = 0; i < CODE_FAILURES.hits; i++) {
        await expect(checkTypedCode(services, user.id, app.wrongAt(Date.now()))).rejects.toMatchObject({
          kind: "invalid",
        });
      }
      await expect(checkTypedCode(services, user.id, app.at(Date.now()))).rejects.toMatchObject({
        kind: "too-many",
        status: 429,
        retryAfterSeconds: CODE_FAILURES.windowSeconds,
      });
      const [after] = await factorsOf(user.id);
      expect(after!.lastStep).toBe(before!.lastStep);
    });
  });

  describe("recovery codes", () => {
    const shape = new RegExp(`^[${RECOVERY_ALPHABET}]{5}-[${RECOVERY_ALPHABET}]{5}$`);

    it("gives ten distinct codes and stores only their hashes", async () => {
      const user = await createUser(database.db);
      const codes = await newRecoveryCodes(services, user.id);
      expect(codes).toHaveLength(10);
      expect(new Set(codes).size).toBe(10);
      for (const code of codes) expect(code).toMatch(shape);

      const rows = await codesOf(user.id);
      expect(rows).toHaveLength(10);
      expect(rows.every((row) => row.usedAt === null)).toBe(true);
      const stored = JSON.stringify(rows);
      for (const code of codes) {
        expect(stored).not.toContain(code);
        expect(stored).not.toContain(code.replace("-", ""));
      }
      expect((await factorOverview(database.db, user.id)).recoveryCodesLeft).toBe(10);
    });

    it("accepts each code once, however it is typed, and says so of a code used already", async () => {
      const user = await createUser(database.db);
      const [first, second] = await newRecoveryCodes(services, user.id);

      expect(await checkTypedCode(services, user.id, first!)).toEqual({ kind: "recovery", factorId: null });
      await expect(checkTypedCode(services, user.id, first!)).rejects.toMatchObject({
        kind: "invalid",
        fieldErrors: { code: [USED_RECOVERY_CODE_MESSAGE] },
      });
      expect(USED_RECOVERY_CODE_MESSAGE).toMatch(/^That code has been used already/);
      // A code never given is still only wrong: "used" tells nothing of codes the member does not hold.
      await expect(checkTypedCode(services, user.id, "aaaaa-aaaaa")).rejects.toMatchObject({
        fieldErrors: { code: [WRONG_CODE_MESSAGE] },
      });

      const shouted = ` ${second!.replace("-", " ").toUpperCase()} `;
      expect(await checkTypedCode(services, user.id, shouted)).toEqual({ kind: "recovery", factorId: null });
      await expect(checkTypedCode(services, user.id, second!)).rejects.toMatchObject({ kind: "invalid" });

      const rows = await codesOf(user.id);
      expect(rows.filter((row) => row.usedAt !== null)).toHaveLength(2);
      expect((await factorOverview(database.db, user.id)).recoveryCodesLeft).toBe(8);
    });

    it("uses a code once when two requests bring it together", async () => {
      const user = await createUser(database.db);
      const [code] = await newRecoveryCodes(services, user.id);
      const results = await Promise.allSettled([
        checkTypedCode(services, user.id, code!),
        checkTypedCode(services, user.id, code!),
      ]);
      expect(results.map((result) => result.status).sort()).toEqual(["fulfilled", "rejected"]);
      expect((await codesOf(user.id)).filter((row) => row.usedAt !== null)).toHaveLength(1);
    });

    it("ends the earlier set when a new one is made", async () => {
      const user = await createUser(database.db);
      const old = await newRecoveryCodes(services, user.id);
      await checkTypedCode(services, user.id, old[0]!);
      const fresh = await newRecoveryCodes(services, user.id);

      await expect(checkTypedCode(services, user.id, old[1]!)).rejects.toMatchObject({ kind: "invalid" });
      const rows = await codesOf(user.id);
      expect(rows).toHaveLength(10);
      expect(rows.every((row) => row.usedAt === null)).toBe(true);
      expect(await checkTypedCode(services, user.id, fresh[0]!)).toEqual({ kind: "recovery", factorId: null });
    });

    it("does not accept another member's code", async () => {
      const owner = await createUser(database.db);
      const other = await createUser(database.db);
      const [code] = await newRecoveryCodes(services, owner.id);
      await expect(checkTypedCode(services, other.id, code!)).rejects.toMatchObject({ kind: "invalid" });
      expect((await codesOf(owner.id)).every((row) => row.usedAt === null)).toBe(true);
    });
  });

  describe("passkeys", () => {
    const authenticator = () => new SoftwareAuthenticator(relyingParty(services.config));
    const answer = (challengeId: string, credential: object) =>
      passkeyAnswerSchema.parse(postedAnswer(challengeId, credential));

    async function register(userId: string, device = authenticator(), name = "Laptop") {
      const { options, challengeId } = await registrationOptions(services, userId);
      const factorId = await addPasskey(services, userId, answer(challengeId, device.register(options)), name);
      return { device, factorId };
    }

    it("registers a passkey under its name with its credential and public key", async () => {
      const user = await createUser(database.db);
      const device = authenticator();
      const { options, challengeId } = await registrationOptions(services, user.id);
      expect(options.rp.id).toBe(relyingParty(services.config).id);
      const factorId = await addPasskey(services, user.id, answer(challengeId, device.register(options)), "Laptop");

      const rows = await factorsOf(user.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        id: factorId,
        kind: "passkey",
        name: "Laptop",
        credentialId: device.id,
        signCount: 0,
        transports: ["internal"],
        secretSealed: null,
      });
      expect(Buffer.from(rows[0]!.publicKey!, "base64url").equals(device.cosePublicKey())).toBe(true);
      expect(await database.db.select().from(webauthnChallenges).where(eq(webauthnChallenges.id, challengeId))).toEqual(
        [],
      );
      expect((await factorOverview(database.db, user.id)).passkeys.map((p) => p.name)).toEqual(["Laptop"]);
    });

    it("refuses the same credential registered twice, and an answer from another site", async () => {
      const user = await createUser(database.db);
      const { device } = await register(user.id);

      const again = await registrationOptions(services, user.id);
      expect(again.options.excludeCredentials?.map((c) => c.id)).toEqual([device.id]);
      await expect(
        addPasskey(services, user.id, answer(again.challengeId, device.register(again.options)), "Again"),
      ).rejects.toMatchObject({ kind: "invalid", message: "This passkey is already registered." });

      const elsewhere = await registrationOptions(services, user.id);
      const phished = authenticator().register(elsewhere.options, "https://members.example.net");
      await expect(
        addPasskey(services, user.id, answer(elsewhere.challengeId, phished), "Phished"),
      ).rejects.toMatchObject({ kind: "invalid", message: PASSKEY_FAILED_MESSAGE });
      expect((await factorsOf(user.id)).map((row) => row.name)).toEqual(["Laptop"]);
    });

    it("signs in with a passkey alone, and refuses the same answer replayed", async () => {
      const user = await createUser(database.db);
      const { device, factorId } = await register(user.id);

      const { options, challengeId } = await authenticationOptions(services, "sign-in", null);
      expect(options.userVerification).toBe("required");
      const response = device.assert(options);
      expect(await verifyPasskey(services, "sign-in", null, answer(challengeId, response))).toEqual({
        userId: user.id,
        factorId,
      });
      const [row] = await factorsOf(user.id);
      expect(Number(row!.signCount)).toBe(1);

      await expect(verifyPasskey(services, "sign-in", null, answer(challengeId, response))).rejects.toMatchObject({
        kind: "invalid",
      });
      expect(Number((await factorsOf(user.id))[0]!.signCount)).toBe(1);
    });

    it("refuses a passkey of a disabled account", async () => {
      const user = await createUser(database.db);
      const { device } = await register(user.id);
      await database.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, user.id));
      const { options, challengeId } = await authenticationOptions(services, "sign-in", null);
      await expect(
        verifyPasskey(services, "sign-in", null, answer(challengeId, device.assert(options))),
      ).rejects.toMatchObject({ kind: "invalid", message: PASSKEY_FAILED_MESSAGE });
    });

    it("asks a passkey alone for the device's user verification, and a second factor does not", async () => {
      const user = await createUser(database.db);
      const { device, factorId } = await register(user.id);
      const alone = await authenticationOptions(services, "sign-in", null);
      await expect(
        verifyPasskey(
          services,
          "sign-in",
          null,
          answer(alone.challengeId, device.assert(alone.options, 1, { verified: false })),
        ),
      ).rejects.toMatchObject({ kind: "invalid", message: PASSKEY_FAILED_MESSAGE });
      expect(Number((await factorsOf(user.id))[0]!.signCount)).toBe(0);

      const factor = await authenticationOptions(services, "factor", user.id);
      expect(
        await verifyPasskey(
          services,
          "factor",
          user.id,
          answer(factor.challengeId, device.assert(factor.options, 2, { verified: false })),
        ),
      ).toEqual({ userId: user.id, factorId });
    });

    it("refuses a signature counter that went back", async () => {
      const user = await createUser(database.db);
      const { device } = await register(user.id);
      const first = await authenticationOptions(services, "factor", user.id);
      await verifyPasskey(services, "factor", user.id, answer(first.challengeId, device.assert(first.options, 5)));

      const second = await authenticationOptions(services, "factor", user.id);
      await expect(
        verifyPasskey(services, "factor", user.id, answer(second.challengeId, device.assert(second.options, 3))),
      ).rejects.toMatchObject({ kind: "invalid", message: PASSKEY_FAILED_MESSAGE });
      expect(Number((await factorsOf(user.id))[0]!.signCount)).toBe(5);
    });

    it("refuses another member's passkey as a member's second factor", async () => {
      const owner = await createUser(database.db);
      const other = await createUser(database.db);
      const { device } = await register(owner.id);
      await register(other.id, authenticator(), "Their own");

      const { options, challengeId } = await authenticationOptions(services, "factor", other.id);
      expect(options.allowCredentials?.map((c) => c.id)).not.toContain(device.id);
      await expect(
        verifyPasskey(services, "factor", other.id, answer(challengeId, device.assert(options))),
      ).rejects.toMatchObject({ kind: "invalid", message: PASSKEY_FAILED_MESSAGE });
      expect(Number((await factorsOf(owner.id))[0]!.signCount)).toBe(0);
    });

    it("refuses an answer to a challenge made for another member", async () => {
      const owner = await createUser(database.db);
      const other = await createUser(database.db);
      const { device } = await register(owner.id);
      const { options, challengeId } = await authenticationOptions(services, "factor", other.id);
      await expect(
        verifyPasskey(services, "factor", owner.id, answer(challengeId, device.assert(options))),
      ).rejects.toMatchObject({ kind: "invalid" });
      expect(Number((await factorsOf(owner.id))[0]!.signCount)).toBe(0);
    });

    it("removes a passkey of the member's own only", async () => {
      const owner = await createUser(database.db);
      const other = await createUser(database.db);
      const { factorId } = await register(owner.id, authenticator(), "Phone");

      expect(await removePasskey(database.db, other.id, factorId)).toBeNull();
      expect(await factorsOf(owner.id)).toHaveLength(1);
      expect(await removePasskey(database.db, owner.id, factorId)).toBe("Phone");
      expect(await factorsOf(owner.id)).toEqual([]);
      expect(await removePasskey(database.db, owner.id, factorId)).toBeNull();
    });
  });
});
