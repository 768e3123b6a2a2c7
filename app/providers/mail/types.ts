/** One outgoing e-mail. `template` names what it is, for the outbox and the logs. */
export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Headers of its own, such as a one-click unsubscribe (List-Unsubscribe, RFC 8058). */
  headers?: Record<string, string>;
  template: string;
};

/** Told of each e-mail handed over (sent) or not (failed): the server's metrics. */
export type MailCounter = (outcome: "sent" | "failed") => void;

export interface MailProvider {
  send(message: MailMessage): Promise<void>;
}
