import { eq } from "drizzle-orm";
import type { AppServices } from "~/context";
import { sessions, users } from "~/db/schema";
import { audit } from "./audit.server";
import type { Viewer } from "./session.server";

export type AgentResult = { ok: true; username: string } | { ok: false; message: string };

/** An admin starts acting for a member: the session carries the member until stopped. */
export async function startAgent(
  services: AppServices,
  viewer: Viewer,
  target: { userId?: string; username?: string },
): Promise<AgentResult> {
  if (!viewer.user.admin) return { ok: false, message: "Only an admin can represent a member" };
  const condition = target.userId
    ? eq(users.id, target.userId)
    : eq(users.username, (target.username ?? "").toLowerCase());
  const [member] = await services.db.select().from(users).where(condition).limit(1);
  if (!member || member.disabledAt) return { ok: false, message: "No such member" };
  if (member.id === viewer.user.id) return { ok: false, message: "You cannot represent yourself" };
  await services.db.update(sessions).set({ agentUserId: member.id }).where(eq(sessions.id, viewer.session.id));
  await audit(services.db, { actorUserId: viewer.user.id, agentUserId: member.id }, "agent.start", "user", member.id);
  return { ok: true, username: member.username };
}

export async function stopAgent(services: AppServices, viewer: Viewer): Promise<void> {
  if (!viewer.session.agentUserId) return;
  await services.db.update(sessions).set({ agentUserId: null }).where(eq(sessions.id, viewer.session.id));
  await audit(
    services.db,
    { actorUserId: viewer.user.id, agentUserId: viewer.session.agentUserId },
    "agent.stop",
    "user",
    viewer.session.agentUserId,
  );
}
