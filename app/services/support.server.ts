import type { AppServices } from "~/context";
import { supportRequests } from "~/db/schema";
import type { SupportInput } from "~/domain/contact";
import { FORM_IDS } from "~/domain/forms";
import { audit, type AuditActor } from "./audit.server";
import { storeFormEntry, type StoredFormEntry } from "./form-store.server";
import { enforceRateLimit } from "./rate-limit.server";

/** Stores the request as a support form entry (form 255) and mails the support address. */
export async function submitSupportRequest(
  services: AppServices,
  input: SupportInput,
  meta: { userId: string | null; ip: string; actor: AuditActor | null },
): Promise<{ entryNumber: number; formEntryId: string }> {
  await enforceRateLimit(
    services.db,
    `support:ip:${meta.ip}`,
    10,
    3_600,
    "You have sent several requests already; wait a while before sending another.",
  );
  const entry = await storeFormEntry(services, {
    formId: FORM_IDS.support,
    userId: meta.userId,
    data: {
      email: input.email,
      name: input.name ?? null,
      subject: input.subject,
      message: input.message,
      source: input.source,
    },
  });
  await recordSupportRequest(services, entry, input, meta);
  return { entryNumber: entry.entryNumber, formEntryId: entry.id };
}

/**
 * A support form entry becomes a request in the admins' list and a mail to the support inbox:
 * one sent here, or one the hosted form's webhook delivered.
 */
export async function recordSupportRequest(
  services: AppServices,
  entry: StoredFormEntry,
  input: SupportInput,
  meta: { userId: string | null; actor: AuditActor | null },
) {
  const [stored] = await services.db
    .insert(supportRequests)
    .values({
      userId: meta.userId,
      email: input.email,
      name: input.name || null,
      subject: input.subject,
      message: input.message,
      source: input.source,
      formEntryId: entry.id,
    })
    .returning({ id: supportRequests.id });
  // A signed-in request is a write like any other: in agent mode it names both people.
  if (meta.actor) await audit(services.db, meta.actor, "support.request", "support_request", stored!.id);
  await services.providers.mail.send({
    to: services.config.supportEmail,
    template: "support-request",
    subject: `Support request #${entry.entryNumber}: ${input.subject}`,
    text: `From: ${input.name ? `${input.name} <${input.email}>` : input.email}\nSource: ${input.source}\n\n${input.message}`,
  });
}
