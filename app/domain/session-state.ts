/** The session state of spec §3 as the server sends it, and the client's rules for updates. */

export type SessionStateCore = {
  username: string;
  email: string;
  verified_email: boolean;
  admin: boolean;
  /** The username of the member an admin is acting for, or null. */
  agent: string | null;
  user_id: string | null;
  needsSetup: boolean;
  sub_id: string | null;
  sub_status: string | null;
  expiration: string | null;
  login_recheck: number;
  login_at_checked: string;
  sub_recheck: number;
  sub_checked: string | null;
  nolCreator: boolean;
  nolTester: boolean;
  country: string | null;
  /** The session id and the device's public key, for the state header protocol. */
  sid: string;
  dpk: string | null;
};

export type SessionState = SessionStateCore & { stateHash: string; stateString: string };

/**
 * Whom the navigation is for: the represented member while an admin acts for them (the admin
 * sees the site as they do), else the signed-in member.
 */
export type NavigationFor = { admin: boolean; email: string };

export type StateUpdate = { accept: true } | { accept: false; reason: "username-changed" };

/**
 * "Server state changes that alter the username (without an agent) are rejected." A new
 * state for a different member is only taken while acting as an agent.
 */
export function acceptStateUpdate(
  previous: Pick<SessionStateCore, "username"> | null,
  next: SessionStateCore,
): StateUpdate {
  if (!previous || previous.username === next.username || next.agent) return { accept: true };
  return { accept: false, reason: "username-changed" };
}

/** spec §8: only the site's own API calls may carry and update the signed state. */
export const API_ONLY_MESSAGE = "Call /api/* endpoints to update authenticated state";

export function usernameChangeMessage(supportEmail: string): string {
  return `An error has occurred and was reported.  Please try again.  You may contact support at ${supportEmail}.`;
}
