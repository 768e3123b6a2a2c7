import { and, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { AppServices } from "~/context";
import { mailings } from "~/db/schema";
import { SENDING_CLAIM_MS } from "~/domain/mailing/round-letters";
import { sweepJob } from "../queue.server";
import { applyMailEvent, runSandboxMailHouse } from "./events.server";
import { sendClaimed, takeOver } from "./send.server";

/**
 * The mailings' background work: asking the mail house after letters it has said nothing of
 * for a while (a webhook can be lost), finishing sends whose answer was lost, and the sandbox
 * mail house's clock.
 */

/** How long a letter on its way may go without an event before the poll asks after it. */
export const QUIET_MS = 12 * 60 * 60_000;

const BATCH = 200;

/**
 * Reads again, at the mail house, each letter on its way that nothing was heard of for QUIET_MS
 * (and that no poll read within it), applying the events it has; then takes over the sends
 * left without an answer, asking again with their keys.
 */
export async function pollMailings(
  services: AppServices,
  now = new Date(),
): Promise<{ polled: number; recovered: number }> {
  const { db } = services;
  const provider = services.providers.mailhouse.name;
  const quietSince = new Date(now.getTime() - QUIET_MS);
  const quiet = await db
    .select()
    .from(mailings)
    .where(
      and(
        eq(mailings.provider, provider),
        inArray(mailings.state, ["created", "mailed", "in_transit"]),
        lt(sql`coalesce(${mailings.lastEventAt}, ${mailings.sendDate}, ${mailings.createdAt})`, quietSince),
        or(isNull(mailings.polledAt), lt(mailings.polledAt, quietSince)),
      ),
    )
    .limit(BATCH);
  for (const row of quiet) {
    for (const event of await services.providers.mailhouse.listEvents(row.letterId!)) {
      await applyMailEvent(services, event);
    }
    await db.update(mailings).set({ polledAt: now }).where(eq(mailings.id, row.id));
  }
  const stuck = await db
    .select()
    .from(mailings)
    .where(
      and(
        eq(mailings.provider, provider),
        eq(mailings.state, "sending"),
        or(isNull(mailings.sendingSince), lt(mailings.sendingSince, new Date(now.getTime() - SENDING_CLAIM_MS))),
      ),
    )
    .limit(BATCH);
  let recovered = 0;
  for (const row of stuck) {
    const claim = await takeOver(services, row, now);
    if (!claim) continue;
    if ((await sendClaimed(services, claim.row)).outcome === "sent") recovered += 1;
  }
  return { polled: quiet.length, recovered };
}

export const mailingsPollJob = sweepJob({
  name: "mailings-poll",
  schedule: "*/5 * * * *",
  async run(services) {
    const result = await pollMailings(services);
    if (result.polled + result.recovered > 0) services.logger.info(result, "asked the mail house after letters");
  },
});

export const mailhouseSandboxEventsJob = sweepJob({
  name: "mailhouse-sandbox-events",
  schedule: "* * * * *",
  enabled: (services) => services.providers.mailhouseSandbox !== null,
  async run(services) {
    await runSandboxMailHouse(services);
  },
});
