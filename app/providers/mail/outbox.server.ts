import type { Database } from "~/db/client.server";
import { mailOutbox } from "~/db/schema";
import type { MailMessage, MailProvider } from "./types";

/** A message's own fields, as the outbox table keeps them. */
export const outboxFields = ({ to, subject, text, html, headers, template }: MailMessage) => ({
  to,
  subject,
  text,
  html,
  headers,
  template,
});

/** The built-in mail provider: messages are delivered to the outbox table, which admins can read. */
export function outboxMailer(db: Database): MailProvider {
  return {
    async send(message) {
      await db.insert(mailOutbox).values({
        ...outboxFields(message),
        status: "sent",
        sentAt: new Date(),
      });
    },
  };
}
