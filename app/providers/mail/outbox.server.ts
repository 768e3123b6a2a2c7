import type { Database } from "~/db/client.server";
import { mailOutbox } from "~/db/schema";
import type { MailProvider } from "./types";

/** The built-in mail provider: messages are delivered to the outbox table, which admins can read. */
export function outboxMailer(db: Database): MailProvider {
  return {
    async send(message) {
      await db.insert(mailOutbox).values({
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        headers: message.headers,
        template: message.template,
        status: "sent",
        sentAt: new Date(),
      });
    },
  };
}
