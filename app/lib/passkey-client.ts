/**
 * The browser's side of a passkey (WebAuthn through @simplewebauthn/browser, loaded only when
 * a passkey is used): asks the server for a challenge's options, lets the device answer it,
 * and hands back what a form posts (decision 045).
 */

export type PasskeyCeremony = "create" | "get";

/** Whether this browser can use passkeys at all. */
export function passkeysSupported(): boolean {
  return typeof window !== "undefined" && typeof window.PublicKeyCredential === "function";
}

/** Why a ceremony did not end in an answer, in words a member can act on. */
export function passkeyProblem(error: unknown): string {
  const name = error instanceof Error ? error.name : "";
  if (name === "NotAllowedError" || name === "AbortError") return "The passkey was not used. Try again when ready.";
  if (name === "InvalidStateError") return "This device already holds a passkey of this account.";
  if (error instanceof Error && error.message.startsWith("server:")) return error.message.slice("server:".length);
  return "This browser could not use a passkey here. Use another way, or another browser.";
}

/**
 * Runs one ceremony: the options from `optionsUrl` (a POST of `fields`), then the device.
 * Answers the JSON a form's passkey field carries: the challenge's id and the credential.
 */
export async function passkeyAnswer(
  optionsUrl: string,
  fields: Record<string, string>,
  ceremony: PasskeyCeremony,
): Promise<string> {
  const response = await fetch(optionsUrl, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { Accept: "application/json" },
  });
  const data = (await response.json().catch(() => null)) as {
    options?: unknown;
    challengeId?: string;
    error?: string;
  } | null;
  if (!response.ok || !data?.options || !data.challengeId) {
    throw new Error(`server:${data?.error ?? "The passkey could not be started. Try again."}`);
  }
  const browser = await import("@simplewebauthn/browser");
  const credential =
    ceremony === "create"
      ? await browser.startRegistration({ optionsJSON: data.options as never })
      : await browser.startAuthentication({ optionsJSON: data.options as never });
  return JSON.stringify({ challengeId: data.challengeId, credential: JSON.stringify(credential) });
}
