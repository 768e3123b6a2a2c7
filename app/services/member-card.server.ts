import { and, eq, isNull } from "drizzle-orm";
import type { AppServices } from "~/context";
import { users } from "~/db/schema";
import { notFound } from "~/domain/errors";
import { memberGroupStanding } from "./community-group.server";

/** /user/{id}: a member as other signed-in members may see them: no e-mail, nothing private. */
export async function memberCard(services: AppServices, userId: string) {
  const [user] = await services.db
    .select({ id: users.id, username: users.username, createdAt: users.createdAt })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.disabledAt)));
  if (!user) throw notFound("No such member");
  const group = await memberGroupStanding(services.db, user.id);
  return {
    username: user.username,
    memberSince: user.createdAt.toISOString(),
    group: group.state === "joined" ? group.group : null,
  };
}
