/** A hand-off code the learning site signed: who it names and when it was made. */
export type Handoff = { code: string; sub: string; iat: number; nonce: string; expiresAt: Date };

export type HandoffCheck = { ok: true; handoff: Handoff } | { ok: false; status: 400 | 401 | 503; error: string };

/** The community's learning site: its single sign-on address and its frame hand-off. */
export interface LearningSiteProvider {
  readonly name: "docebo" | "off";
  /** The address that signs the member into the learning site, or null when SSO is not set up. */
  signInUrl(username: string, search: URLSearchParams, now?: Date): string | null;
  /** Checks a hand-off's signature, shape and age (not yet whether it was used). */
  checkHandoff(query: URLSearchParams, now?: Date): HandoffCheck;
}
