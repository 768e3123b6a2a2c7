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
