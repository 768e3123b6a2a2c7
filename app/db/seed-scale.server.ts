import type { DatabaseHandle } from "./client.server";

/**
 * `npm run seed:scale`: a community of the size the admin area is built for, added to a
 * database that has the demo seed (its plans, coupons, countries and causes). Generated in
 * the database itself (generate_series), in batches, so 100,000 members and 1,000,000 NoL
 * entries take minutes, not hours. The members are "sm000001"… at @scale.example; they have
 * no password and cannot sign in.
 *
 * Proportions: 60 % have a membership (mostly active, some past due, canceled or trialing),
 * 5 % paid with a coupon, 10 % are NoL creators who hold the entries, 30 % have used a
 * session in the last 90 days; one entry in twenty is a claim with one to three notices.
 */

export type ScaleOptions = {
  members: number;
  entries: number;
  /** Rows a statement inserts at most; smaller batches keep the embedded database's memory down. */
  batch?: number;
  log?: (message: string) => void;
};

export const SCALE_DOMAIN = "scale.example";

export async function seedScale(database: DatabaseHandle, options: ScaleOptions): Promise<void> {
  const { members, entries } = options;
  const batch = options.batch ?? 50_000;
  const log = options.log ?? (() => {});
  const run = (text: string, values: unknown[] = []) => database.executeSql(text, values);

  const [{ n: existing } = { n: 0 }] = (
    await run(`select count(*)::int as n from users where email like '%@${SCALE_DOMAIN}'`)
  ).rows as { n: number }[];
  if (Number(existing) > 0) throw new Error(`The database has ${existing} scale members already`);
  const [{ n: plans } = { n: 0 }] = (await run(`select count(*)::int as n from plans where kind = 'subscription'`))
    .rows as { n: number }[];
  if (Number(plans) === 0) throw new Error("The database has no subscription plans: it needs the demo seed first");

  const started = Date.now();
  const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

  for (let from = 1; from <= members; from += batch) {
    const to = Math.min(members, from + batch - 1);
    await run(
      `insert into users (username, email, name, country_code, email_verified_at, needs_setup,
                          nol_creator, nol_tester, created_at, updated_at)
       select 'sm' || lpad(i::text, 6, '0'),
              'sm' || lpad(i::text, 6, '0') || '@${SCALE_DOMAIN}',
              (array['Ann','Bob','Cleo','Dev','Eli','Fay','Gus','Hal','Ivy','Jo'])[1 + i % 10] || ' ' ||
                (array['Smith','Jones','Lee','Khan','Brown','Garcia','Martin','Nguyen'])[1 + (i / 10) % 8],
              (array['US','US','US','CA','GB','AU'])[1 + i % 6],
              now(), i % 50 = 0, i % 10 = 0, i % 97 = 0,
              now() - (($3::int - i) * interval '5 minutes'),
              now()
       from generate_series($1::int, $2::int) as i`,
      [from, to, members],
    );
    log(`members ${to.toLocaleString("en-US")} of ${members.toLocaleString("en-US")} (${elapsed()})`);
  }

  // Memberships: the trigger on subscriptions keeps each member's status and plan.
  await run(
    `insert into subscriptions (user_id, plan_id, status, provider, list_amount_cents, amount_cents,
                                current_period_start, current_period_end, created_at, updated_at)
     select u.id, p.ids[1 + n % array_length(p.ids, 1)],
            (case when n % 25 < 20 then 'ACTIVE' when n % 25 < 22 then 'PAST_DUE'
                  when n % 25 < 24 then 'CANCELED' else 'TRIALING' end)::subscription_status,
            'sandbox', 2000, 2000, now() - interval '10 days', now() + interval '20 days',
            u.created_at, now()
     from (select id, created_at, substr(username, 3)::int as n from users where email like '%@${SCALE_DOMAIN}') u,
          (select array_agg(id order by id) as ids from plans where kind = 'subscription') p
     where u.n % 5 < 3`,
  );
  log(`memberships (${elapsed()})`);

  // Coupons: a checkout that succeeded with the coupon, and its redemption.
  await run(
    `with paid as (
       insert into checkouts (user_id, email, kind, plan_id, coupon_id, list_amount_cents, amount_cents,
                              status, provider, created_at)
       select u.id, u.email, 'subscription', (select id from plans where kind = 'subscription' order by id limit 1),
              c.ids[1 + u.n % array_length(c.ids, 1)], 2000, 1600, 'succeeded', 'sandbox', u.created_at
       from (select id, email, created_at, substr(username, 3)::int as n from users
             where email like '%@${SCALE_DOMAIN}') u,
            (select array_agg(id order by id) as ids from coupons) c
       where u.n % 20 = 1 and c.ids is not null
       returning id, user_id, email, coupon_id, created_at
     )
     insert into coupon_redemptions (coupon_id, checkout_id, user_id, email, list_amount_cents, amount_cents,
                                     currency, redeemed_at)
     select coupon_id, id, user_id, email, 2000, 1600, 'usd', created_at from paid`,
  );
  log(`coupon redemptions (${elapsed()})`);

  // Sessions used in the last 90 days: the trigger on sessions keeps each member's last visit.
  await run(
    `insert into sessions (id, user_id, expires_at, last_seen_at, login_checked_at, ip, user_agent, created_at)
     select md5(u.id::text || 'scale-session'), u.id, now() + interval '7 days',
            now() - ((u.n % 90) * interval '1 day') - ((u.n % 1440) * interval '1 minute'),
            now(), '198.51.100.' || (u.n % 250 + 1), 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0', now()
     from (select id, substr(username, 3)::int as n from users where email like '%@${SCALE_DOMAIN}') u
     where u.n % 10 < 3`,
  );
  log(`sessions (${elapsed()})`);

  // NoL entries, held by the creators: each creator's entries spread over the causes and versions.
  await run(`drop table if exists scale_creators`);
  await run(`create unlogged table scale_creators as
             select id, (row_number() over (order by username) - 1)::int as rn from users
             where nol_creator and email like '%@${SCALE_DOMAIN}'`);
  const [{ n: creators } = { n: 0 }] = (await run(`select count(*)::int as n from scale_creators`)).rows as {
    n: number;
  }[];
  if (Number(creators) > 0) {
    for (let from = 0; from < entries; from += batch) {
      const to = Math.min(entries, from + batch) - 1;
      await run(
        `insert into nol_entries (id, form, form_id, entry_number, user_id, cause_code, descriptive_version, round,
                                  edit_hash, view_hash, nol_tracking, nol_mailing_date, nol_proof_of_delivery,
                                  tb_value, created_at, updated_at)
         select f.form_id || '-' || (1000000 + n), f.form::nol_form, f.form_id, 1000000 + n, c.id,
                k.codes[1 + (n / $3::int) % array_length(k.codes, 1)],
                'Version ' || (1 + (n / ($3::int * array_length(k.codes, 1))) % 5),
                1 + n % 3,
                md5(n::text || 'scale-edit') || '*', md5(n::text || 'scale-view') || '*',
                '[true]'::jsonb, '[null]'::jsonb, '[false]'::jsonb,
                case when f.form = 'NoLBilling' then 1 + (n / 7) % 3 end,
                now() - ((n % 365) * interval '1 day'), now() - ((n % 365) * interval '1 day')
         from generate_series($1::int, $2::int) as n
         join scale_creators c on c.rn = n % $3::int
         cross join (select array_agg(code order by code) as codes from causes) k
         cross join lateral (select case when n % 10 < 8 then 'NoLCreator2' when n % 10 = 8 then 'NoLProfileBilling'
                                         else 'NoLBilling' end as form) fm
         cross join lateral (select fm.form, case fm.form when 'NoLCreator2' then 187
                                                         when 'NoLProfileBilling' then 189 else 194 end as form_id) f`,
        [from, to, creators],
      );
      log(`NoL entries ${(to + 1).toLocaleString("en-US")} of ${entries.toLocaleString("en-US")} (${elapsed()})`);
    }
    // One creator entry in twenty has its claim, with one to three notices.
    await run(
      `insert into claims (claimant_id, cause_code, country_code, nol_version)
       select distinct e.user_id, e.cause_code, coalesce(u.country_code, 'US'), e.descriptive_version
       from nol_entries e join users u on u.id = e.user_id
       where e.form_id = 187 and e.entry_number >= 1000000 and e.entry_number % 20 = 0
       on conflict do nothing`,
    );
    await run(
      `insert into notices (claim_id, round_cnt)
       select c.claim_id, r from claims c
       join users u on u.id = c.claimant_id and u.email like '%@${SCALE_DOMAIN}'
       cross join generate_series(1, 3) as r
       where r <= 1 + c.claim_id % 3`,
    );
    log(`claims and notices (${elapsed()})`);
  }
  await run(`drop table if exists scale_creators`);
  await run(`analyze`);
  log(
    `done: ${members.toLocaleString("en-US")} members, ${entries.toLocaleString("en-US")} NoL entries (${elapsed()})`,
  );
}
