import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { SMTPServer, type SMTPServerDataStream } from "smtp-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AppServices } from "~/context";
import { mailOutbox } from "~/db/schema";
import { seedDemo } from "~/db/seed.server";
import { MAX_MAIL_ATTEMPTS, mailRetryDueAt } from "~/domain/mail";
import { signUp } from "~/services/accounts.server";
import { smtpTransport } from "~/providers/mail/smtp.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";

type Received = { from: string; to: string[]; raw: string };

/** A real SMTP server on a free local port: it checks the login and can refuse recipients. */
async function startMailServer() {
  const received: Received[] = [];
  const settings = { refuse: false, delayMs: 0 };
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === "mailer" && auth.password === "p@ss word") return callback(null, { user: "mailer" });
      return callback(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
    },
    onRcptTo(_address, _session, callback) {
      if (settings.refuse) return callback(Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 }));
      return callback();
    },
    onData(stream: SMTPServerDataStream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        if (settings.delayMs) await new Promise((resolve) => setTimeout(resolve, settings.delayMs));
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    received,
    settings,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The message body with quoted-printable soft line breaks and escapes undone. */
function bodyOf(raw: string): string {
  return raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

const meta = { ip: "198.51.100.20", userAgent: "test" };

describe.each(drivers)("mail through SMTP on %s", (driver) => {
  let database: TestDatabase;
  let mailServer: Awaited<ReturnType<typeof startMailServer>>;
  let services: AppServices;

  const rowsTo = (to: string) => database.db.select().from(mailOutbox).where(eq(mailOutbox.to, to));

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    mailServer = await startMailServer();
    services = testContext(database, {
      MAIL: "smtp",
      SMTP_URL: `smtp://mailer:${encodeURIComponent("p@ss word")}@127.0.0.1:${mailServer.port}`,
      MAIL_FROM: "no-reply@members.example.org",
    }).app!;
  });
  afterAll(async () => {
    await mailServer?.close();
    await database?.dispose();
  });
  beforeEach(() => {
    mailServer.settings.refuse = false;
    mailServer.settings.delayMs = 0;
    mailServer.received.length = 0;
  });

  it("sends the sign-up confirmation through the mail server and records it as sent", async () => {
    const result = await signUp(
      services,
      { username: "smtpalice", email: "smtpalice@example.org", password: "a quiet garden path" },
      meta,
    );
    expect(result.sessionId).toEqual(expect.any(String));
    await services.providers.mail.settled();
    expect(mailServer.received).toHaveLength(1);
    const [message] = mailServer.received;
    expect(message!.from).toBe("no-reply@members.example.org");
    expect(message!.to).toEqual(["smtpalice@example.org"]);
    expect(message!.raw).toMatch(/^From: Memberhall Community <no-reply@members\.example\.org>$/m);
    expect(message!.raw).toMatch(/^Subject: Confirm your e-mail address$/m);
    expect(bodyOf(message!.raw)).toMatch(/\/signup\/verify\?token=[\w-]+/);
    const [row] = await rowsTo("smtpalice@example.org");
    expect(row).toMatchObject({ status: "sent", attempts: 1, lastError: null, template: "verify-email" });
    expect(row!.sentAt).toBeInstanceOf(Date);
  });

  it("keeps a refused e-mail pending without failing the action, and sends it when it is due again", async () => {
    mailServer.settings.refuse = true;
    await services.providers.mail.send({ to: "later@example.org", subject: "Later", text: "Hello", template: "test" });
    await services.providers.mail.settled();
    const [refused] = await rowsTo("later@example.org");
    expect(refused).toMatchObject({ status: "pending", attempts: 1 });
    expect(refused!.lastError).toContain("550");

    mailServer.settings.refuse = false;
    const early = await services.providers.mail.retryPending(
      new Date(mailRetryDueAt(refused!.createdAt, 1).getTime() - 1_000),
    );
    expect(early).toEqual({ sent: 0, failed: 0 });
    expect(mailServer.received).toHaveLength(0);

    const due = await services.providers.mail.retryPending(mailRetryDueAt(refused!.createdAt, 1));
    expect(due).toEqual({ sent: 1, failed: 0 });
    expect(mailServer.received.map((m) => m.to)).toEqual([["later@example.org"]]);
    const [sent] = await rowsTo("later@example.org");
    expect(sent).toMatchObject({ status: "sent", attempts: 2, lastError: null });
  });

  it("sends a message's own headers (a reminder's one-click unsubscribe), on a retry as well", async () => {
    const headers = {
      "List-Unsubscribe": "<https://members.example.org/reminders/unsubscribe?kind=no-proof>",
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    };
    const message = { to: "headers@example.org", subject: "Reminder", text: "Hello", template: "test", headers };
    await services.providers.mail.send(message);
    await services.providers.mail.settled();
    mailServer.settings.refuse = true;
    await services.providers.mail.send({ ...message, to: "headers-later@example.org" });
    await services.providers.mail.settled();
    mailServer.settings.refuse = false;
    const [refused] = await rowsTo("headers-later@example.org");
    await services.providers.mail.retryPending(mailRetryDueAt(refused!.createdAt, 1));
    expect(mailServer.received.map((m) => m.to)).toEqual([["headers@example.org"], ["headers-later@example.org"]]);
    for (const { raw } of mailServer.received) {
      // Long header lines are folded onto the next line, which starts with a space.
      const unfolded = raw.replace(/\r?\n[ \t]+/g, " ");
      expect(unfolded).toMatch(
        /^List-Unsubscribe: <https:\/\/members\.example\.org\/reminders\/unsubscribe\?kind=no-proof>$/m,
      );
      expect(unfolded).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    }
  });

  it("gives up after the last try and leaves the row failed with the server's reply", async () => {
    mailServer.settings.refuse = true;
    await services.providers.mail.send({ to: "nobody@example.org", subject: "Never", text: "Hello", template: "test" });
    await services.providers.mail.settled();
    let [row] = await rowsTo("nobody@example.org");
    for (let sweep = 0; row!.status === "pending" && sweep < MAX_MAIL_ATTEMPTS; sweep += 1) {
      await services.providers.mail.retryPending(mailRetryDueAt(row!.createdAt, row!.attempts));
      [row] = await rowsTo("nobody@example.org");
    }
    expect(row).toMatchObject({ status: "failed", attempts: MAX_MAIL_ATTEMPTS });
    expect(row!.lastError).toContain("Mailbox unavailable");
    mailServer.settings.refuse = false;
    await services.providers.mail.retryPending(new Date(row!.createdAt.getTime() + 86_400_000));
    expect(mailServer.received).toHaveLength(0);
  });

  it("sends a due e-mail once when two sweeps run at the same time", async () => {
    mailServer.settings.refuse = true;
    await services.providers.mail.send({ to: "once@example.org", subject: "Once", text: "Hello", template: "test" });
    await services.providers.mail.settled();
    mailServer.settings.refuse = false;
    const [row] = await rowsTo("once@example.org");
    const now = mailRetryDueAt(row!.createdAt, 1);
    const results = await Promise.all([
      services.providers.mail.retryPending(now),
      services.providers.mail.retryPending(now),
    ]);
    expect(results.reduce((sum, r) => sum + r.sent, 0)).toBe(1);
    expect(mailServer.received.filter((m) => m.to.includes("once@example.org"))).toHaveLength(1);
  });

  it("requires STARTTLS for smtp:// off this machine, and not for a local relay", () => {
    const options = (url: string) =>
      (smtpTransport(url) as unknown as { transporter: { options: { requireTLS: boolean; secure: boolean } } })
        .transporter.options;
    expect(options("smtp://mailer:pw@mail.example.org:587")).toMatchObject({ requireTLS: true, secure: false });
    expect(options("smtps://mailer:pw@mail.example.org")).toMatchObject({ requireTLS: false, secure: true });
    expect(options("smtp://127.0.0.1:25")).toMatchObject({ requireTLS: false });
  });

  it("answers the request before the mail server has answered", async () => {
    mailServer.settings.delayMs = 400;
    await services.providers.mail.send({ to: "slow@example.org", subject: "Slow", text: "Hello", template: "test" });
    // send() is back while the server still holds the message: the row waits as pending.
    expect(mailServer.received).toHaveLength(0);
    const [queued] = await rowsTo("slow@example.org");
    expect(queued).toMatchObject({ status: "pending", attempts: 1 });
    await services.providers.mail.settled();
    const [sent] = await rowsTo("slow@example.org");
    expect(sent!.status).toBe("sent");
    expect(mailServer.received.map((m) => m.to)).toEqual([["slow@example.org"]]);
  });

  it("records a refused login and an unreachable server on the row instead of throwing", async () => {
    const wrongPassword = testContext(database, {
      MAIL: "smtp",
      SMTP_URL: `smtp://mailer:wrong@127.0.0.1:${mailServer.port}`,
    }).app!;
    await wrongPassword.providers.mail.send({
      to: "auth@example.org",
      subject: "Auth",
      text: "Hello",
      template: "test",
    });
    await wrongPassword.providers.mail.settled();
    const [auth] = await rowsTo("auth@example.org");
    expect(auth).toMatchObject({ status: "pending", attempts: 1 });
    expect(auth!.lastError).toContain("535");

    const closed = await startMailServer();
    await closed.close();
    const unreachable = testContext(database, { MAIL: "smtp", SMTP_URL: `smtp://127.0.0.1:${closed.port}` }).app!;
    await unreachable.providers.mail.send({ to: "down@example.org", subject: "Down", text: "Hello", template: "test" });
    await unreachable.providers.mail.settled();
    const [down] = await rowsTo("down@example.org");
    expect(down).toMatchObject({ status: "pending", attempts: 1 });
    expect(down!.lastError).toMatch(/ECONNREFUSED|connect/i);
    expect(mailServer.received).toHaveLength(0);
  });
});
