import { z } from "zod";
import type { AppServices } from "~/context";
import { invariant } from "~/domain/errors";
import { entityIndex, entityList, entityRecord } from "./data-browser.server";
import { entryTimeline } from "./nol/version-timelines.server";
import { outboxMessage } from "./records.server";

const mailId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/**
 * The admins' read-only data browser (/db/{entity?}/{id?}): the kinds of records, a list of
 * one kind with its filters, or one record. A mail of the outbox is shown whole, with its
 * text and links, as the built-in mail provider's inbox; a NoL entry with its version's
 * timeline. Anything else is not-found.
 */
export async function recordView(
  services: AppServices,
  entity: string | undefined,
  view: string | undefined,
  params: URLSearchParams,
) {
  const { db } = services;
  if (!entity) return entityIndex(db);
  if (entity === "mail_outbox" && view) {
    const id = mailId.safeParse(view);
    invariant(id.success);
    const message = await outboxMessage(db, id.data);
    invariant(message);
    return { view: "mail" as const, message };
  }
  if (entity === "nol_entries" && view) {
    const record = await entityRecord(db, entity, view);
    return { ...record, timeline: await entryTimeline(services, view) };
  }
  if (view) return entityRecord(db, entity, view);
  return entityList(db, entity, params);
}
