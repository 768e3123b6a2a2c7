import { createHash } from "node:crypto";
import { and, count, desc, eq, isNull, sql } from "drizzle-orm";
import { DOCUMENT_KINDS } from "~/domain/documents/placeholders";
import { SAMPLE_TEMPLATES } from "~/domain/documents/samples";
import { DEFAULT_DISCLAIMER, DISCLAIMER_KEY } from "~/domain/documents/templates";
import { hashPassword } from "~/lib/password.server";
import type { Database } from "./client.server";
import { SINGLE_LOCK } from "./locks";
import {
  causes,
  countries,
  countryCauses,
  couponDiscounts,
  directoryRespondents,
  couponPlans,
  coupons,
  creditAccounts,
  creditEntries,
  documentTemplates,
  payments,
  plans,
  settings,
  billingCustomers,
  sandboxObjects,
  subscriptions,
  users,
} from "./schema";
import { sandboxSubscriptionRecords } from "~/providers/payments/sandbox.server";

/** The demo members, each showing one role of spec §6. All live in DEMO_COUNTRY. */
export const DEMO_USERS = [
  { username: "admin", role: "admin", admin: true },
  { username: "creator", role: "NoL creator", nolCreator: true },
  { username: "tester", role: "NoL tester", nolTester: true },
  { username: "member", role: "member" },
  { username: "newbie", role: "signed up, needs setup", needsSetup: true },
] as const;

export const DEMO_COUNTRY = "US";

/** The demo creator's notarize credits. */
export const DEMO_CREDITS = 50;

const DEMO_COUNTRIES = [
  { code: "US", name: "United States" },
  { code: "CA", name: "Canada" },
  { code: "GB", name: "United Kingdom" },
  { code: "AU", name: "Australia" },
];

const DEMO_CAUSES = [
  { code: "TS", label: "Traffic stop", name: "Traffic Stop" },
  { code: "PS", label: "Property seizure", name: "Property Seizure" },
  { code: "UD", label: "Unlawful detention", name: "Unlawful Detention" },
  { code: "CR", label: "Child removal", name: "Child Removal" },
  { code: "TD", label: "Tax demand", name: "Tax Demand" },
  { code: "MC", label: "Medical coercion", name: "Medical Coercion" },
  { code: "EV", label: "Eviction", name: "Eviction" },
  { code: "DC", label: "Debt collection", name: "Debt Collection" },
];

// Every country has causes in each state, so every cause rule can be tried anywhere.
const DEMO_COUNTRY_CAUSES: Record<string, { live: string[]; testing: string[]; beta: string[] }> = {
  US: { live: ["TS", "PS", "UD"], testing: ["CR", "TD"], beta: ["MC", "EV"] },
  CA: { live: ["TS", "EV"], testing: ["PS"], beta: ["UD", "DC"] },
  GB: { live: ["TS"], testing: ["UD", "DC"], beta: ["PS"] },
  AU: { live: ["PS"], testing: ["TS"], beta: ["CR"] },
};

const LINK_BASE = "https://community.example.org";

/** True when the database holds no members yet: the demo goes only into a new database. */
async function isNewDatabase(db: Database): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(users);
  return (row?.n ?? 0) === 0;
}

export async function seedDemo(db: Database, options: { demoPassword: string; now?: Date }): Promise<boolean> {
  const now = options.now ?? new Date();
  // A database seeded before needs nothing, not even the slow hash; a new one is hashed for
  // before the transaction (it needs no lock) and checked again under the lock.
  if (!(await isNewDatabase(db))) return false;
  const passwordHash = await hashPassword(options.demoPassword);
  return db.transaction(async (tx) => {
    // Several servers may boot at once against one PostgreSQL: one seeds, the others see it done.
    await tx.execute(sql`select pg_advisory_xact_lock(${SINGLE_LOCK.demoSeed}::bigint)`);
    if (!(await isNewDatabase(tx as unknown as Database))) return false;

    await tx.insert(countries).values(DEMO_COUNTRIES).onConflictDoNothing();
    await tx.insert(causes).values(DEMO_CAUSES).onConflictDoNothing();
    await tx
      .insert(countryCauses)
      .values(
        Object.entries(DEMO_COUNTRY_CAUSES).flatMap(([countryCode, lists]) =>
          (["live", "testing", "beta"] as const).flatMap((status) =>
            lists[status].map((causeCode) => ({ countryCode, causeCode, status })),
          ),
        ),
      )
      .onConflictDoNothing();

    await tx
      .insert(plans)
      .values([
        {
          id: "monthly",
          title: "Monthly membership",
          kind: "subscription",
          amountCents: 2000,
          interval: "month",
          description: "The NoL creator and the community, month by month.",
          features: ["nolCreator"],
          sort: 1,
        },
        {
          id: "annual",
          title: "Annual membership",
          kind: "subscription",
          amountCents: 20000,
          interval: "year",
          description: "The NoL creator and the community for a year: two months free.",
          features: ["nolCreator"],
          sort: 2,
        },
        {
          id: "supporter",
          title: "Supporter membership",
          kind: "subscription",
          amountCents: 500,
          interval: "month",
          description: "The community and its news, month by month, without the NoL creator.",
          sort: 3,
        },
        {
          id: "donation",
          title: "Donation",
          kind: "donation",
          description: "Support the community with an amount you choose.",
          sort: 4,
        },
        {
          id: "notarize-credit",
          title: "Notarize credit",
          kind: "credit",
          amountCents: 2500,
          description: "One online notarizing of a notice.",
          sort: 5,
        },
      ])
      .onConflictDoNothing();

    const day = 86_400_000;
    await tx
      .insert(coupons)
      .values([
        { id: "WELCOME10", name: "Welcome 10% off", duration: "once", percentOff: "10" },
        {
          id: "FRIEND5",
          name: "$5 off for three months",
          duration: "repeating",
          durationInMonths: 3,
          amountOff: 500,
          currency: "usd",
          maxRedemptions: 100,
        },
        { id: "MEMBER20", name: "Members' friends 20% off", duration: "forever", percentOff: "20" },
        {
          id: "LAUNCH25",
          name: "Launch 25% off",
          duration: "forever",
          percentOff: "25",
          redeemBy: new Date(now.getTime() - 30 * day),
          valid: false,
        },
      ])
      .onConflictDoNothing();
    await tx
      .insert(couponPlans)
      .values([
        { couponId: "WELCOME10", planId: "monthly" },
        { couponId: "WELCOME10", planId: "annual" },
        { couponId: "FRIEND5", planId: "monthly" },
        { couponId: "LAUNCH25", planId: "annual" },
        { couponId: "MEMBER20", planId: "monthly" },
        { couponId: "MEMBER20", planId: "annual" },
      ])
      .onConflictDoNothing();
    await tx.insert(couponDiscounts).values([
      {
        couponSlug: "welcome",
        couponId: "WELCOME10",
        groupName: "New members",
        welcomeMessage: "Welcome! Your first payment is 10% off.",
      },
      {
        couponSlug: "friends",
        couponId: "FRIEND5",
        groupName: "Friends of members",
        welcomeMessage: "A member invited you: $5 off for your first three months.",
      },
      {
        couponSlug: "members-friends",
        couponId: "MEMBER20",
        groupName: "Members' friends",
        welcomeMessage: "Welcome, friend of the community: 20% off every payment.",
      },
    ]);
    // A neutral sample directory: offices and people as a community's own list would name them.
    await tx
      .insert(directoryRespondents)
      .values([
        {
          name: "Officer Example",
          type: "Official",
          agency: "Springfield Police Department",
          place: "Springfield, US",
        },
        { name: "Springfield Police Department", type: "Agency", place: "Springfield, US" },
        { name: "County Clerk Example", type: "Official", agency: "Shelby County", place: "Shelbyville, US" },
        { name: "Example Towing Company", type: "Corporation", place: "Springfield, US", address: "1 Depot Road" },
        { name: "Judge Example", type: "Official", agency: "District Court", place: "Capital City, US" },
        { name: "Revenue Office Example", type: "Agency", place: "Ottawa, CA" },
        { name: "Parking Enforcement Example", type: "Agency", agency: "City of Toronto", place: "Toronto, CA" },
        { name: "Jane Example", type: "Individual", place: "Springfield, US" },
        { name: "Tax Collector Example", type: "Official", agency: "Shelby County", place: "Shelbyville, US" },
        {
          name: "Example Collections Agency",
          type: "Corporation",
          place: "Capital City, US",
          address: "9 Ledger Lane",
        },
      ])
      .onConflictDoNothing();

    await tx
      .insert(settings)
      .values([
        { key: "mnInviteLink", value: `${LINK_BASE}/invite/memberhall` },
        {
          key: "mightyLinks",
          value: Object.fromEntries(
            DEMO_CAUSES.slice(0, 4).map((c) => [
              c.code,
              `${LINK_BASE}/spaces/${c.name.toLowerCase().replace(/ /g, "-")}`,
            ]),
          ),
        },
        { key: "demoSeededAt", value: now.toISOString() },
      ])
      .onConflictDoNothing();

    const inserted = await tx
      .insert(users)
      .values(
        DEMO_USERS.map((u) => ({
          username: u.username,
          email: `${u.username}@memberhall.example`,
          emailVerifiedAt: now,
          passwordHash,
          name: `Demo ${u.username[0]!.toUpperCase()}${u.username.slice(1)}`,
          countryCode: DEMO_COUNTRY,
          admin: "admin" in u ? u.admin : false,
          nolCreator: "nolCreator" in u ? u.nolCreator : false,
          nolTester: "nolTester" in u ? u.nolTester : false,
          needsSetup: "needsSetup" in u ? u.needsSetup : false,
          setupStep: "needsSetup" in u ? "profile" : null,
        })),
      )
      .returning({ id: users.id, username: users.username, needsSetup: users.needsSetup });

    // The creator notarizes where notarizing costs credits; the others start without any.
    const creditHolders = inserted.filter((u) => u.username === "creator");
    if (creditHolders.length > 0) {
      await tx.insert(creditAccounts).values(creditHolders.map((u) => ({ userId: u.id, balance: DEMO_CREDITS })));
      await tx.insert(creditEntries).values(
        creditHolders.map((u) => ({
          userId: u.id,
          delta: DEMO_CREDITS,
          reason: "grant" as const,
          note: "Demo credits",
        })),
      );
    }

    // The members who finished setup pay the supporter plan through the payments sandbox,
    // which keeps its side of each subscription (their profile's billing actions work). It
    // grants nothing, so each demo member keeps the role of its row: only `creator` creates.
    const subscribers = inserted.filter((u) => !u.needsSetup);
    const end = new Date(now.getTime() + 30 * day);
    const supporter = {
      id: "supporter",
      title: "Supporter membership",
      kind: "subscription" as const,
      amountCents: 500,
      currency: "usd",
      interval: "month" as const,
      providerPriceId: null,
    };
    await tx.insert(sandboxObjects).values(
      subscribers.flatMap((u) =>
        sandboxSubscriptionRecords({
          customerRef: `cus_demo_${u.username}`,
          subscriptionRef: `sub_demo_${u.username}`,
          email: `${u.username}@memberhall.example`,
          name: null,
          userId: u.id,
          plan: supporter,
          start: now,
          end,
        }),
      ),
    );
    await tx.insert(billingCustomers).values(
      subscribers.map((u) => ({
        userId: u.id,
        email: `${u.username}@memberhall.example`,
        provider: "sandbox" as const,
        providerCustomerId: `cus_demo_${u.username}`,
        cardBrand: "visa",
        cardLast4: "4242",
        cardExpMonth: 12,
        cardExpYear: 2039,
      })),
    );
    const started = await tx
      .insert(subscriptions)
      .values(
        subscribers.map((u) => ({
          userId: u.id,
          planId: "supporter",
          status: "ACTIVE" as const,
          provider: "sandbox" as const,
          providerSubscriptionId: `sub_demo_${u.username}`,
          providerCustomerId: `cus_demo_${u.username}`,
          listAmountCents: 500,
          amountCents: 500,
          currentPeriodStart: now,
          currentPeriodEnd: end,
        })),
      )
      .returning({ id: subscriptions.id, userId: subscriptions.userId });
    // Each membership began when its member joined, with its first period paid then, as the
    // checkout does: the billing page lists that payment beside the next one.
    const usernameOf = new Map(subscribers.map((u) => [u.id, u.username]));
    await tx.insert(payments).values(
      started.map((subscription) => {
        const username = usernameOf.get(subscription.userId)!;
        return {
          userId: subscription.userId,
          planId: "supporter",
          kind: "subscription" as const,
          subscriptionId: subscription.id,
          email: `${username}@memberhall.example`,
          listAmountCents: supporter.amountCents,
          amountCents: supporter.amountCents,
          currency: supporter.currency,
          status: "succeeded" as const,
          provider: "sandbox" as const,
          providerRef: `in_demo_${username}`,
          cardBrand: "visa",
          cardLast4: "4242",
          periodStart: now,
          periodEnd: end,
          receiptSentAt: now,
          createdAt: now,
        };
      }),
    );
    return true;
  });
}

/**
 * What every community starts from, demo or not: the sample document templates (any cause,
 * any round) and the "not legal advice" notice, where the database has none yet. Runs at every
 * start; changes nothing the second time, nor anything an admin has written.
 */
export async function seedDocumentDefaults(db: Database): Promise<void> {
  await db
    .insert(documentTemplates)
    .values(
      DOCUMENT_KINDS.map((kind) => ({ causeCode: null, kind, round: null, version: 1, body: SAMPLE_TEMPLATES[kind] })),
    )
    .onConflictDoNothing();
  await renewUntouchedSamples(db);
  await db.insert(settings).values({ key: DISCLAIMER_KEY, value: DEFAULT_DISCLAIMER }).onConflictDoNothing();
}

/**
 * The SHA-256 of each sample text shipped before the current one: a community whose newest
 * any-cause, any-round template is still one of them has written nothing of its own there.
 */
const EARLIER_SAMPLES: Partial<Record<(typeof DOCUMENT_KINDS)[number], string[]>> = {
  // Before notices and true bills were letters, one per respondent, with both addresses; then
  // letters with a line to sign by hand, before the member's signature had its "@signature".
  notice: [
    "397c26355f618815299879040e336a0268b2a050384423084f4ffb55a202b818",
    "a93c113805c729813e8ceac36cb42a93596a38d47421ece7d15107e258c358fe",
  ],
  "true-bill": [
    "68bac08059ea879441c265c173b763390308dd8f9d4e8b9942584ba19844106f",
    "eb67a40e158f583b4c3a1ac9ee8bf33607834aef928ceca9e30ffa38583bfaf1",
  ],
};

/**
 * A new version with the current sample text where the newest any-cause, any-round version is
 * an earlier sample nobody edited. Notices keep the version they were first made with, so no
 * document already made changes; what an admin wrote is never replaced.
 */
async function renewUntouchedSamples(db: Database): Promise<void> {
  for (const kind of DOCUMENT_KINDS) {
    const earlier = EARLIER_SAMPLES[kind];
    if (!earlier) continue;
    const scope = and(
      isNull(documentTemplates.causeCode),
      eq(documentTemplates.kind, kind),
      isNull(documentTemplates.round),
    );
    const [newest] = await db
      .select({ version: documentTemplates.version, body: documentTemplates.body })
      .from(documentTemplates)
      .where(scope)
      .orderBy(desc(documentTemplates.version))
      .limit(1);
    if (!newest || !earlier.includes(createHash("sha256").update(newest.body).digest("hex"))) continue;
    await db
      .insert(documentTemplates)
      .values({ causeCode: null, kind, round: null, version: newest.version + 1, body: SAMPLE_TEMPLATES[kind] })
      .onConflictDoNothing();
  }
}

/** The demo logins, for the start banner; empty when the demo data is not there. */
export async function demoLogins(db: Database): Promise<string[]> {
  const rows = await db.select({ username: users.username }).from(users);
  const present = new Set(rows.map((r) => r.username));
  return DEMO_USERS.filter((u) => present.has(u.username)).map((u) => `${u.username} (${u.role})`);
}
