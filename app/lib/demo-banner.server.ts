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
