import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { recoveryCodes, sessions } from "~/db/schema";
import { invalid } from "~/domain/errors";
import { deviceOf } from "~/domain/profile";
import { factorRequired, stepUpFresh, type MfaPolicy } from "~/domain/second-factor";
import { actorOf } from "../audit.server";
import type { Viewer } from "../viewer.server";
import { removeTotp } from "./codes.server";
import { addPasskey, readPasskeyField, removePasskey } from "./passkeys.server";
import { factorChanged, factorOverview } from "./records.server";
import { forgetDevices, rememberedDeviceList } from "./sign-in.server";
import { requireStepUp } from "./step-up.server";

/**
 * The second-factor part of /profile/security: what the member has, and the changes they make
 * there (a passkey added or removed, the authenticator app removed, remembered devices
 * forgotten). A change to the factors asks for a fresh one first (step-up).
 */

export async function securityOverview(services: AppServices, viewer: Viewer) {
  const factors = await factorOverview(services.db, viewer.user.id);
  return {
    factors,
    devices: (await rememberedDeviceList(services.db, viewer.user.id)).map(({ userAgent, ...device }) => ({
      ...device,
      device: deviceOf(userAgent),
    })),
    required:
      viewer.adminLocked !== undefined ||
      factorRequired(services.config.mfaRequiredFor, { isAdmin: viewer.user.admin }),
    /** Whom the community asks for a second factor, where that includes this member. */
    requiredOf: requiredOfViewer(services.config.mfaRequiredFor, viewer.user.admin),
    fresh: factors.hasFactor && stepUpFresh(viewer.session.factorPassedAt, new Date()),
    /** The demo requires no factor: the page says how to try one. */
    demo: services.config.demo && services.config.mfaRequiredFor === "none",
  };
}

function requiredOfViewer(policy: MfaPolicy, isAdmin: boolean): "admins" | "everyone" | null {
  if (policy === "all") return "everyone";
  return policy === "admin" && isAdmin ? "admins" : null;
}

export const PASSKEY_NAME_MAX = 60;

export const securityFormSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("add-passkey"),
    name: z
      .string({ required_error: "Name this passkey" })
      .trim()
      .min(1, "Name this passkey, such as the device that holds it")
      .max(PASSKEY_NAME_MAX, `Use at most ${PASSKEY_NAME_MAX} characters`),
  }),
  z.object({ intent: z.literal("remove-passkey"), factor: z.string().uuid("Choose a passkey") }),
  z.object({ intent: z.literal("remove-totp") }),
  z.object({ intent: z.literal("forget-device"), device: z.string().uuid("Choose a device") }),
  z.object({ intent: z.literal("forget-devices") }),
]);
export const SECURITY_INTENTS = ["add-passkey", "remove-passkey", "remove-totp", "forget-device", "forget-devices"];

/** The session passed a factor now (a factor just made with the device proves it). */
export async function sessionPassedNow(db: Database, sessionId: string): Promise<void> {
  await db.update(sessions).set({ factorPassedAt: new Date() }).where(eq(sessions.id, sessionId));
}

/**
 * After a factor is removed, no browser skips the factors left on the strength of the one
 * removed: every remembered device is forgotten. With the last factor gone, the recovery codes
 * have nothing to recover and go too.
 */
async function afterRemoval(db: Database, userId: string): Promise<void> {
  await forgetDevices(db, userId);
  await db
    .delete(recoveryCodes)
    .where(
      and(eq(recoveryCodes.userId, userId), sql`not exists (select 1 from user_factors f where f.user_id = ${userId})`),
    );
}

/**
 * Does one change of the security page; answers the message to show, and whether the member
 * should make recovery codes next (a first factor, and none made yet).
 */
export async function securityChange(
  services: AppServices,
  viewer: Viewer,
  request: Request,
  form: FormData,
): Promise<{ message: string; makeCodes: boolean }> {
  const parsed = securityFormSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalid(issue.message, { [String(issue.path[0] ?? "intent")]: [issue.message] });
  }
  const change = parsed.data;
  const { db } = services;
  const userId = viewer.user.id;
  const actor = actorOf(viewer);
  if (change.intent === "forget-device" || change.intent === "forget-devices") {
    const forgotten = await forgetDevices(db, userId, change.intent === "forget-device" ? change.device : undefined);
    if (forgotten > 0) await factorChanged(services, actor, userId, { event: "removed", kind: "device" });
    return {
      message:
        forgotten === 1 ? "That device will be asked for your second factor again." : "No device is remembered now.",
      makeCodes: false,
    };
  }
  await requireStepUp(services, viewer, "factor-change", request, form);
  switch (change.intent) {
    case "add-passkey": {
      const answer = readPasskeyField(form.get("passkey"));
      if (!answer) throw invalid("Use the Add a passkey button: adding a passkey needs JavaScript.");
      await addPasskey(services, userId, answer, change.name);
      await sessionPassedNow(db, viewer.session.id);
      await factorChanged(services, actor, userId, { event: "added", kind: "passkey", name: change.name });
      const { recoveryCodesLeft } = await factorOverview(db, userId);
      return { message: `Your passkey "${change.name}" is added.`, makeCodes: recoveryCodesLeft === 0 };
    }
    case "remove-passkey": {
      const name = await removePasskey(db, userId, change.factor);
      if (name === null) throw invalid("That passkey is already removed.");
      await afterRemoval(db, userId);
      await factorChanged(services, actor, userId, { event: "removed", kind: "passkey", name });
      return { message: `Your passkey "${name}" is removed.`, makeCodes: false };
    }
    case "remove-totp": {
      if (!(await removeTotp(db, userId))) throw invalid("Your authenticator app is already removed.");
      await afterRemoval(db, userId);
      await factorChanged(services, actor, userId, { event: "removed", kind: "totp" });
      return { message: "Your authenticator app is removed.", makeCodes: false };
    }
  }
}
