import { collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";

/**
 * What a server measures for Prometheus. Each set of services has a registry of its own
 * (prom-client's global one would refuse a second app booted in the same process, as tests
 * do). What moves with the work is counted here as it happens; what the database holds is
 * read when Prometheus asks (metrics-database.server.ts).
 */

export type WebhookOutcome = "applied" | "duplicate" | "unreadable" | "refused" | "failed";
export type MailOutcome = "sent" | "failed";

export type Metrics = {
  readonly registry: Registry;
  /** One answered request, by the route's pattern (never its raw path: the series stay few). */
  requestServed(labels: { method: string; route: string; status: number }, seconds: number): void;
  /** One query's round trip, as the app waited for it. */
  queryRun(seconds: number): void;
  /** One try of a job that threw (it is retried or given up). */
  jobFailed(job: string): void;
  /** One webhook delivery, by what became of it. */
  webhookReceived(provider: string, outcome: WebhookOutcome): void;
  /** One e-mail handed to the outbox or one try to hand it to the mail server. */
  mailSent(transport: string, outcome: MailOutcome): void;
  /** One visitor page answered from the copy the server keeps, or rendered (app/server/kept-pages.server.ts). */
  visitorPageServed(kept: boolean): void;
  /** One signed-in member's page that may be kept, answered from the kept copy or rendered (app/server/kept-pages.server.ts). */
  memberPageServed(kept: boolean): void;
  /**
   * Shows the counters of what this server can count at zero from its start: a series that
   * appears only at its first failure hides that failure from `increase()` and `rate()`.
   */
  startAtZero(known: { jobs?: string[]; mailTransports?: string[]; webhookProviders?: string[] }): void;
};

const WEBHOOK_OUTCOMES: WebhookOutcome[] = ["applied", "duplicate", "unreadable", "refused", "failed"];
const MAIL_OUTCOMES: MailOutcome[] = ["sent", "failed"];

export const PREFIX = "memberhall_";

const LINT_REFUSED = ["nodejs_active_handles_total", "nodejs_active_requests_total", "nodejs_active_resources_total"];

/** Latencies from a millisecond to ten seconds: a page answers in a few, a slow report in seconds. */
const REQUEST_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const QUERY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];

/**
 * The counters and histograms. `process` adds prom-client's standard process and Node.js
 * series (CPU, memory, event-loop lag, GC) under their usual names: only a serving process
 * asks for them, since each registry that collects them watches the event loop and the GC.
 */
export function createMetrics({ process = false } = {}): Metrics {
  const registry = new Registry();
  if (process) {
    collectDefaultMetrics({ register: registry });
    // Gauges named like counters, which promtool's lint refuses; the same counts by type stay
    // (nodejs_active_handles and the others), and their sum is the total.
    for (const name of LINT_REFUSED) registry.removeSingleMetric(name);
  }
  const registers = [registry];
  const requests = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: "Time from a request's arrival to its answer's last byte, by method, route pattern and status",
    labelNames: ["method", "route", "status"] as const,
    buckets: REQUEST_BUCKETS,
    registers,
  });
  const queries = new Histogram({
    name: `${PREFIX}db_query_duration_seconds`,
    help: "Time the app waited for each database query",
    buckets: QUERY_BUCKETS,
    registers,
  });
  const jobFailures = new Counter({
    name: `${PREFIX}job_failures_total`,
    help: "Job runs that failed on this server, by job",
    labelNames: ["job"] as const,
    registers,
  });
  const webhooks = new Counter({
    name: `${PREFIX}webhook_events_total`,
    help: "Webhook deliveries by provider and outcome (applied, duplicate, unreadable, refused, failed)",
    labelNames: ["provider", "outcome"] as const,
    registers,
  });
  const mail = new Counter({
    name: `${PREFIX}mail_messages_total`,
    help: "E-mails handed over (sent) or not (failed), by transport",
    labelNames: ["transport", "outcome"] as const,
    registers,
  });
  const visitorPages = new Counter({
    name: `${PREFIX}visitor_pages_total`,
    help: "Visitor pages (the same for every visitor) answered from the kept copy or rendered, by source",
    labelNames: ["source"] as const,
    registers,
  });
  const memberPages = new Counter({
    name: `${PREFIX}member_pages_total`,
    help: "Signed-in members' pages that may be kept (home, NoL step, members list) answered from the kept copy or rendered, by source",
    labelNames: ["source"] as const,
    registers,
  });
  for (const source of ["kept", "rendered"]) {
    visitorPages.inc({ source }, 0);
    memberPages.inc({ source }, 0);
  }
  return {
    registry,
    requestServed: ({ method, route, status }, seconds) =>
      requests.observe({ method, route, status: String(status) }, seconds),
    queryRun: (seconds) => queries.observe(seconds),
    jobFailed: (job) => jobFailures.inc({ job }),
    webhookReceived: (provider, outcome) => webhooks.inc({ provider, outcome }),
    mailSent: (transport, outcome) => mail.inc({ transport, outcome }),
    visitorPageServed: (kept) => visitorPages.inc({ source: kept ? "kept" : "rendered" }),
    memberPageServed: (kept) => memberPages.inc({ source: kept ? "kept" : "rendered" }),
    startAtZero({ jobs = [], mailTransports = [], webhookProviders = [] }) {
      for (const job of jobs) jobFailures.inc({ job }, 0);
      for (const transport of mailTransports) for (const outcome of MAIL_OUTCOMES) mail.inc({ transport, outcome }, 0);
      for (const provider of webhookProviders)
        for (const outcome of WEBHOOK_OUTCOMES) webhooks.inc({ provider, outcome }, 0);
    },
  };
}
