import { Secret, TOTP } from "otpauth";
import type { AppServices } from "~/context";
import { confirmTotp, totpSetup } from "~/services/factors/codes.server";

const PERIOD_MS = 30_000;

/** The codes an authenticator app shows for the secret the set-up page shows (groups of four). */
export function authenticatorApp(shownSecret: string) {
  const totp = new TOTP({
    secret: Secret.fromBase32(shownSecret.replace(/\s+/g, "")),
    algorithm: "SHA1",
    digits: 6,
    period: PERIOD_MS / 1000,
  });
  const at = (timestamp: number) => totp.generate({ timestamp });
  return {
    at,
    /** Six digits that no step around `timestamp` shows. */
    wrongAt(timestamp: number) {
      const near = new Set([-1, 0, 1].map((step) => at(timestamp + step * PERIOD_MS)));
      let n = 123_456;
      while (near.has(String(n).padStart(6, "0"))) n = (n + 1) % 1_000_000;
      return String(n).padStart(6, "0");
    },
  };
}

/** Waits out the last seconds of a 30-second step, so a code computed now is checked within the same one. */
export async function clearOfStepEnd(): Promise<void> {
  const into = Date.now() % PERIOD_MS;
  if (into > PERIOD_MS - 3_000) await new Promise((resolve) => setTimeout(resolve, PERIOD_MS - into + 50));
}

/**
 * Sets up an authenticator app for the member, confirmed with the previous step's code (one
 * step either side is accepted), so that the current step's code is still unused.
 */
export async function addAuthenticator(services: AppServices, userId: string, username = "member") {
  const setup = await totpSetup(services, { id: userId, username });
  const app = authenticatorApp(setup.secret);
  await clearOfStepEnd();
  const factorId = await confirmTotp(services, userId, { sealed: setup.sealed, code: app.at(Date.now() - PERIOD_MS) });
  return { factorId, app, setup };
}
