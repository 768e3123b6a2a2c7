import { eq } from "drizzle-orm";
import type { AppServices } from "~/context";
import { sessions, users } from "~/db/schema";
import { invalid } from "~/domain/errors";
import { actorOf, audit } from "./audit.server";
import type { Viewer } from "./session.server";

/** A refusal names the member field, where the admin typed whom to represent. */
const refuse = (message: string) => invalid(message, { username: [message] });

/**
 * An admin starts acting for a member: the session carries the member until stopped.
 * Returns the member's username; a refusal is an invalid-input DomainError.
 */
export async function startAgent(
  services: AppServices,
  viewer: Viewer,
  target: { userId?: string; username?: string },
): Promise<{ username: string }> {
  if (!viewer.user.admin) throw refuse("Only an admin can represent a member");
  const condition = target.userId
    ? eq(users.id, target.userId)
    : eq(users.username, (target.username ?? "").toLowerCase());
  const [member] = await services.db.select().from(users).where(condition).limit(1);
  if (!member || member.disabledAt) throw refuse("No such member");
  if (member.id === viewer.user.id) throw refuse("You cannot represent yourself");
  await services.db.update(sessions).set({ agentUserId: member.id }).where(eq(sessions.id, viewer.session.id));
  await audit(services.db, { ...actorOf(viewer), agentUserId: member.id }, "agent.start", "user", member.id);
  return { username: member.username };
}

export async function stopAgent(services: AppServices, viewer: Viewer): Promise<void> {
  if (!viewer.session.agentUserId) return;
  await services.db.update(sessions).set({ agentUserId: null }).where(eq(sessions.id, viewer.session.id));
  await audit(
    services.db,
    { ...actorOf(viewer), agentUserId: viewer.session.agentUserId },
    "agent.stop",
    "user",
    viewer.session.agentUserId,
  );
}
