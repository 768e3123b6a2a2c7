import { eq } from "drizzle-orm";
import { z } from "zod";
import type { AppServices } from "~/context";
import { formEntries, webhookEvents } from "~/db/schema";
import { SUPPORT_SOURCE, supportSchema } from "~/domain/contact";
import { invalid } from "~/domain/errors";
import { FORM_IDS } from "~/domain/forms";
import { issuesByPath } from "~/lib/json-body.server";
import { secretMatches } from "~/lib/same-secret.server";
import { seamlessEmbed, type SeamlessEmbed } from "~/lib/seamless-embed";
import type { HostedEntry } from "~/providers/forms/types";
import { keepHostedEntry } from "./form-store.server";
import { authEntry, memberByUsername } from "./nol/access.server";
import type { UserRow } from "./session.server";
import { recordSupportRequest } from "./support.server";

/** The hosted support form's fields (form 255, embedded in the footer's modal), by internal name. */
const supportFieldsSchema = z.object({
  Email: z.string(),
  Name: z.string().nullish(),
  Subject: z.string(),
  Message: z.string(),
  Source: z.string().nullish(),
  Username: z.string().max(32).nullish(),
  Hash: z.string().max(200).nullish(),
});

/**
 * A support request sent in the hosted form: kept like one sent here, in the admins' list and
 * mailed to the support inbox, once per entry (a later update of the entry changes our copy
 * only). The member is named only when the prefilled auth hash matches the username.
 */
export async function receiveHostedSupport(services: AppServices, entry: HostedEntry) {
  const fields = supportFieldsSchema.safeParse(entry);
  if (!fields.success) throw invalid("The entry lacks the support form's fields", issuesByPath(fields.error));
  const f = fields.data;
  const input = supportSchema.safeParse({
    email: f.Email,
    name: f.Name ?? undefined,
    subject: f.Subject,
    message: f.Message,
    source: f.Source ?? SUPPORT_SOURCE,
  });
  if (!input.success) throw invalid("Invalid support request", issuesByPath(input.error));

  const member = f.Username ? await memberByUsername(services.db, f.Username) : null;
  const expected = member ? authEntry(services, member).hash : null;
  const userId = member && expected && f.Hash && secretMatches(f.Hash, expected) ? member.id : null;

  const claimed = await services.db
    .insert(webhookEvents)
    .values({ provider: "cognito", eventId: `${entry.Id}:v${entry.Entry.Version}`, type: "support", payload: entry })
    .onConflictDoNothing()
    .returning({ id: webhookEvents.id });
  if (claimed.length === 0) return { entryId: entry.Id, duplicate: true };

  const [known] = await services.db
    .select({ id: formEntries.id })
    .from(formEntries)
    .where(eq(formEntries.hostedId, entry.Id));
  const stored = await keepHostedEntry(services.db, {
    hostedId: entry.Id,
    formId: FORM_IDS.support,
    entryNumber: entry.Entry.Number,
    userId,
    data: {
      email: input.data.email,
      name: input.data.name ?? null,
      subject: input.data.subject,
      message: input.data.message,
      source: input.data.source,
    },
    editLink: entry.Entry.EditLink ?? null,
    viewLink: entry.Entry.ViewLink ?? null,
  });
  if (!known) await recordSupportRequest(services, stored, input.data, { userId, actor: null });
  await services.db.update(webhookEvents).set({ processedAt: new Date() }).where(eq(webhookEvents.id, claimed[0]!.id));
  return { entryId: entry.Id, duplicate: false };
}

/**
 * The hosted support form for the footer's modal, when the community uses Cognito and its
 * shared support form: prefilled with the e-mail and the source (spec §2.4), and for a member
 * with the username and auth hash that name them in the delivered entry.
 */
export function supportEmbed(services: AppServices, member: UserRow | null): SeamlessEmbed | null {
  const { config } = services;
  if (config.forms !== "cognito" || !config.cognitoSupportFormHash) return null;
  return seamlessEmbed({ apiUrl: config.cognitoApiUrl, embedKey: config.cognitoSupportFormHash }, FORM_IDS.support, {
    Email: member?.email ?? "",
    Source: SUPPORT_SOURCE,
    ...(member ? { Username: member.username, Hash: authEntry(services, member).hash } : {}),
  });
}
