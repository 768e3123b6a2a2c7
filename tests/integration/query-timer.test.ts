import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase } from "~/db/client.server";

describe("openDatabase's query timer", () => {
  it("times each query on PGlite, those inside a transaction and the raw ones too", async () => {
    const times: number[] = [];
    const database = await openDatabase({ driver: "pglite", timeQuery: (seconds) => times.push(seconds) });
    try {
      await database.db.execute(sql`select 1`);
      expect(times).toHaveLength(1);
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`select 2`);
        await tx.execute(sql`select 3`);
      });
      expect(times).toHaveLength(3);
      await database.executeSql("select 4; select 5");
      await expect(database.db.execute(sql`select * from no_such_table`)).rejects.toThrow();
      expect(times).toHaveLength(5);
      expect(times.every((seconds) => seconds >= 0 && seconds < 10)).toBe(true);
    } finally {
      await database.close();
    }
  });
});
