import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedScale } from "~/db/seed-scale.server";
import { seedDemo } from "~/db/seed.server";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";

/** npm run seed:scale, at a small size: the proportions it promises, and a second run refused. */
describe.each(drivers)("the scale seed (%s)", (driver) => {
  let database: TestDatabase;
  const messages: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    await seedScale(database, { members: 1_000, entries: 5_000, batch: 400, log: (m) => messages.push(m) });
  }, 120_000);
  afterAll(async () => {
    await database?.dispose();
  });

  const count = async (query: string) => Number((await database.executeSql(query)).rows[0]?.n);

  it("adds the members, their memberships, coupons, visits and NoL entries in plausible proportions", async () => {
    expect(await count("select count(*) as n from users where email like '%@scale.example'")).toBe(1_000);
    expect(await count("select count(*) as n from nol_entries where entry_number >= 1000000")).toBe(5_000);
    // 60 % have a membership, kept on the member by the trigger.
    expect(
      await count(
        "select count(*) as n from users where email like '%@scale.example' and subscription_status is not null",
      ),
    ).toBe(600);
    expect(
      await count(
        "select count(*) as n from users where subscription_status = 'ACTIVE' and email like '%@scale.example'",
      ),
    ).toBe(480);
    expect(
      await count(
        "select count(*) as n from coupon_redemptions r join users u on u.id = r.user_id where u.email like '%@scale.example'",
      ),
    ).toBe(50);
    expect(
      await count("select count(*) as n from users where email like '%@scale.example' and last_seen_at is not null"),
    ).toBe(300);
    // The entries belong to the creators only, over several causes.
    expect(
      await count(
        "select count(distinct e.user_id) as n from nol_entries e join users u on u.id = e.user_id where not u.nol_creator",
      ),
    ).toBe(0);
    expect(
      await count("select count(distinct cause_code) as n from nol_entries where entry_number >= 1000000"),
    ).toBeGreaterThan(3);
    expect(
      await count(
        "select count(*) as n from notices n join claims c on c.claim_id = n.claim_id join users u on u.id = c.claimant_id where u.email like '%@scale.example'",
      ),
    ).toBeGreaterThan(0);
    expect(messages.at(-1)).toMatch(/^done: 1,000 members, 5,000 NoL entries/);
    const { rows } = await database.executeSql("select to_regclass('scale_creators') as t");
    expect(rows[0]?.t).toBeNull();
  });

  it("refuses to run twice on one database", async () => {
    await expect(seedScale(database, { members: 10, entries: 10 })).rejects.toThrow("scale members already");
    expect(await count("select count(*) as n from users where email like '%@scale.example'")).toBe(1_000);
  });

  it("needs the demo seed's plans", async () => {
    const empty = await createTestDatabase(driver);
    try {
      await expect(seedScale(empty, { members: 10, entries: 10 })).rejects.toThrow("needs the demo seed first");
    } finally {
      await empty.dispose();
    }
  });
});
