import { z } from "zod";
import type { AppServices } from "~/context";
import { supportRequests } from "~/db/schema";
import { FORM_IDS } from "~/domain/forms";
import { audit, type AuditActor } from "./audit.server";
import { hitRateLimit } from "./rate-limit.server";

export const SUPPORT_SOURCE = "Member Site";

export const supportSchema = z.object({
  email: z
    .string({ required_error: "Enter your e-mail address" })
    .trim()
    .min(1, "Enter your e-mail address")
    .max(254)
    .email("Enter a valid e-mail address"),
  name: z.string().trim().max(120, "Use at most 120 characters").optional(),
  subject: z.string().trim().min(1, "Say what it is about").max(200, "Use at most 200 characters"),
  message: z.string().trim().min(1, "Write your message").max(5_000, "Use at most 5,000 characters"),
  source: z.literal(SUPPORT_SOURCE).catch(SUPPORT_SOURCE),
  website: z.string().max(0).optional(),
});
export type SupportInput = z.infer<typeof supportSchema>;

/** Stores the request as a support form entry (form 255) and mails the support address. */
export async function submitSupportRequest(
  services: AppServices,
  input: SupportInput,
  meta: { userId: string | null; ip: string; actor: AuditActor | null },
): Promise<{ ok: true; entryNumber: number } | { ok: false; retryAfterSeconds: number }> {
  const limit = await hitRateLimit(services.db, `support:ip:${meta.ip}`, 10, 3_600);
  if (!limit.ok) return limit;
  const forms = services.providers.forms;
  const entry = await forms.submit({
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
  const [stored] = await services.db
    .insert(supportRequests)
    .values({
      userId: meta.userId,
      email: input.email,
      name: input.name || null,
      subject: input.subject,
      message: input.message,
      source: input.source,
      // Only built-in entries live in our form_entries table.
      formEntryId: forms.name === "builtin" ? entry.id : null,
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
  return { ok: true, entryNumber: entry.entryNumber };
}
