import path from "node:path";
import type { AppConfig } from "~/config/config.server";

/** What `npm start` prints once the demo listens: where it is, who to log in as, where mail goes, how to start afresh. */
export function demoBanner(config: AppConfig, logins: string[]): string {
  const relative = path.relative(process.cwd(), config.dataDir);
  const dataDir = !relative ? "." : relative.startsWith("..") ? config.dataDir : relative;
  const password = config.demoPassword === "memberhall-demo" ? "memberhall-demo" : "the DEMO_PASSWORD you set";
  const lines = [
    "",
    `  memberhall is running at ${config.baseUrl}`,
    "",
    logins.length > 0 ? `  Log in as ${logins.join(", ")}` : "  No demo members: sign up at /signup",
    logins.length > 0 ? `  Password: ${password}` : null,
    config.mail === "outbox"
      ? `  E-mail is not sent: every message is kept in the outbox, shown as sent, at ${config.baseUrl}/db/mail_outbox (log in as admin)`
      : "  E-mail is sent through SMTP_URL",
    config.databaseUrl
      ? "  Data: the PostgreSQL database at DATABASE_URL"
      : `  Data: ${dataDir}/ (an embedded PGlite database). Start afresh: stop, then npm run demo:reset`,
    "  Stop: Ctrl-C",
    "",
  ];
  return `${lines.filter((l) => l !== null).join("\n")}\n`;
}

/** The banner's address and logins again, in three lines, once the log has scrolled it away. */
export function demoReminder(config: AppConfig, logins: string[]): string {
  const lines = [
    "",
    `  memberhall is running at ${config.baseUrl}`,
    logins.length > 0
      ? `  Log in as ${logins.join(", ")}; password: ${config.demoPassword === "memberhall-demo" ? "memberhall-demo" : "the DEMO_PASSWORD you set"}`
      : "  No demo members: sign up at /signup",
    "",
  ];
  return `${lines.join("\n")}\n`;
}

/** How often the demo's terminal shows the address and logins again. */
export const REMIND_EVERY = { lines: 100, ms: 10 * 60_000 };

/**
 * When the banner is due again: after `lines` log lines since it was last shown, or at the
 * first line `ms` after it; a quiet terminal still shows the last one, and gets none.
 */
export function reminderClock(every: { lines: number; ms: number }, shownAt: number) {
  let lines = 0;
  let last = shownAt;
  return {
    /** Counts a log line written at `now`; true when the banner should follow it. */
    lineWritten(now: number): boolean {
      lines += 1;
      if (lines < every.lines && now - last < every.ms) return false;
      lines = 0;
      last = now;
      return true;
    },
  };
}

/**
 * The demo's terminal: log lines go through to `out`, and once the banner has been shown
 * (`shown`), its reminder follows every so often (REMIND_EVERY).
 */
export function remindingTerminal(
  out: { write(chunk: string): unknown },
  { every = REMIND_EVERY, now = Date.now }: { every?: { lines: number; ms: number }; now?: () => number } = {},
) {
  let reminder: { text: string; clock: ReturnType<typeof reminderClock> } | null = null;
  return {
    write(chunk: string) {
      out.write(chunk);
      if (reminder?.clock.lineWritten(now())) out.write(reminder.text);
    },
    /** The banner has just been printed: its reminder starts counting from here. */
    shown(text: string) {
      reminder = { text, clock: reminderClock(every, now()) };
    },
  };
}
