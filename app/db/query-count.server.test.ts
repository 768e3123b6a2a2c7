import { describe, expect, it } from "vitest";
import { countQueries, queriesOf, queriesTiming, queryTally } from "./query-count.server";

const query = async () => {
  await new Promise((resolve) => setTimeout(resolve, 1));
  queryTally.logQuery("select 1", []);
};

describe("counting a request's queries", () => {
  it("counts the queries the work and what it awaits send, apart from work running beside it", async () => {
    const [a, b] = await Promise.all([
      countQueries(async () => {
        await query();
        await Promise.all([query(), query()]);
        return "a";
      }),
      countQueries(async () => {
        await query();
        return "b";
      }),
    ]);
    expect(a).toEqual({ result: "a", queries: 3 });
    expect(b).toEqual({ result: "b", queries: 1 });
  });

  it("counts again in work that starts after all earlier counted work has ended", async () => {
    for (const expected of [2, 1, 3]) {
      const counted = await countQueries(async () => {
        for (let i = 0; i < expected; i += 1) await query();
        return expected;
      });
      expect(counted).toEqual({ result: expected, queries: expected });
      // Between counted pieces of work, a query belongs to none of them.
      await query();
    }
  });

  it("keeps counting work still under way when work beside it ends first", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const long = countQueries(async () => {
      await query();
      await held;
      await query();
      return "long";
    });
    expect(await countQueries(async () => "short")).toEqual({ result: "short", queries: 0 });
    release();
    expect(await long).toEqual({ result: "long", queries: 2 });
  });

  it("counts nothing for a query outside any counted work", async () => {
    await query();
    expect((await countQueries(async () => "none")).queries).toBe(0);
  });

  it("names the count in a Server-Timing entry and reads it back", () => {
    expect(queriesTiming(1)).toBe('db;desc="1 query"');
    expect(queriesOf(`app;dur=3, ${queriesTiming(4)}`)).toBe(4);
    expect(queriesOf(null)).toBeNull();
    expect(queriesOf('db;desc="slow"')).toBeNull();
  });
});
