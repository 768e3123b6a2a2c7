import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Database } from "./client.server";

/**
 * Hot queries, each built once for each database (or transaction) it runs on, when first asked
 * for, and prepared there under its name: building a query costs more than the database takes to
 * answer it, and PostgreSQL plans a named statement once per connection.
 */
const built = new WeakMap<Database, Map<string, unknown>>();

export function preparedQuery<Query>(
  db: Database,
  name: string,
  /** Builds the query and prepares it under `name`, the name it is kept by here too. */
  build: (db: Database, name: string) => Query,
): Query {
  let queries = built.get(db);
  if (!queries) {
    queries = new Map();
    built.set(db, queries);
  }
  let query = queries.get(name) as Query | undefined;
  if (query === undefined) {
    query = build(db, name);
    queries.set(name, query);
  }
  return query;
}

const dialect = new PgDialect();

/**
 * A query without parameters whose text is made once, where the module loads: drizzle would
 * otherwise build the same text from its parts on each request. A query with a parameter is
 * refused here, as the text alone would lose it.
 */
export function fixedQuery(query: SQL): SQL {
  const { sql: text, params } = dialect.sqlToQuery(query);
  if (params.length > 0) throw new Error("A fixed query takes no parameters");
  return sql.raw(text);
}
