/**
 * What the member is told of their second factors: the e-mail sent for every factor added,
 * used at sign-in, removed or reset, or for a sign-in held back by wrong codes, and the names
 * the pages give them.
 */

/** The fields a step-up prompt adds to the action's own form: a typed code, or a passkey's answer. */
export const STEP_UP_CODE = "stepUpCode";
export const STEP_UP_PASSKEY = "stepUpPasskey";

export type FactorKindWord = "passkey" | "totp" | "recovery";

export type FactorEvent =
  | { event: "added"; kind: "passkey" | "totp" | "recovery"; name?: string }
  | { event: "removed"; kind: "passkey" | "totp" | "device"; name?: string }
  | { event: "used"; kind: FactorKindWord; use: "sign-in" | "step-up" }
  | { event: "reset" }
  /** Wrong codes after a right password held the sign-in back: someone else may know it. */
  | { event: "locked"; kind: "totp" | "recovery"; failures: number; resetUrl: string };

/** A factor's kind in words: "a passkey", "your authenticator app", "a recovery code". */
export function factorKindWords(kind: FactorKindWord | "device"): string {
  switch (kind) {
    case "passkey":
      return "a passkey";
    case "totp":
      return "your authenticator app";
    case "recovery":
      return "a recovery code";
    case "device":
      return "a remembered device";
  }
}

const named = (name: string | undefined) => (name ? ` ("${name}")` : "");

export function factorEventText(
  event: FactorEvent,
  words: { username: string; supportEmail: string; securityUrl: string },
): { subject: string; text: string } {
  const notYou = `If this was not you, change your password now, review ${words.securityUrl} and write to ${words.supportEmail}.`;
  const hello = `Hello ${words.username},\n\n`;
  switch (event.event) {
    case "added":
      if (event.kind === "recovery") {
        return {
          subject: "New recovery codes for your account",
          text: `${hello}A new set of recovery codes was made for your account; the earlier codes no longer work.\n\n${notYou}`,
        };
      }
      return {
        subject: "A second factor was added to your account",
        text: `${hello}${capitalized(factorKindWords(event.kind))}${named(event.name)} was added as a second factor of your account.\n\n${notYou}`,
      };
    case "removed":
      return {
        subject: "A second factor was removed from your account",
        text: `${hello}${capitalized(factorKindWords(event.kind))}${named(event.name)} was removed from your account.\n\n${notYou}`,
      };
    case "used":
      return {
        subject: event.kind === "recovery" ? "A recovery code was used" : "A sign-in with your second factor",
        text:
          event.kind === "recovery"
            ? `${hello}A recovery code was used to ${event.use === "sign-in" ? "sign in to" : "confirm an action in"} your account. Each code works once; make new ones at ${words.securityUrl} when few are left.\n\n${notYou}`
            : `${hello}Someone signed in to your account with ${factorKindWords(event.kind)}.\n\n${notYou}`,
      };
    case "reset":
      return {
        subject: "Your second factors were reset",
        text: `${hello}Every second factor of your account (passkeys, authenticator app, recovery codes and remembered devices) was removed, and every session was signed out. Sign in with your password and set up a second factor again at ${words.securityUrl}.\n\n${notYou}`,
      };
    case "locked":
      return {
        subject: "Someone who knows your password tried to sign in",
        text: `${hello}Someone who knows your password tried to sign in to your account, and typed ${event.failures} wrong ${event.kind === "recovery" ? "recovery codes" : "codes for your second factor"}. Such codes are refused for 15 minutes.\n\nIf this was not you, change your password now: this link sets a new one (it works once, within one hour).\n\n${event.resetUrl}\n\nThen review ${words.securityUrl}, and write to ${words.supportEmail} if anything there is not yours.\n\nIf it was you, wait 15 minutes, or sign in with a recovery code or a passkey.`,
      };
  }
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
