import type { Database } from "./client.server";

/**
 * Hot queries, each built once for each database (or transaction) it runs on, when first asked
 * for, and prepared there under its name: building a query costs more than the database takes to
 * answer it, and PostgreSQL plans a named statement once per connection.
 */
const built = new WeakMap<Database, Map<string, unknown>>();

export function preparedQuery<Query>(db: Database, name: string, build: (db: Database) => Query): Query {
  let queries = built.get(db);
  if (!queries) {
    queries = new Map();
    built.set(db, queries);
  }
  let query = queries.get(name) as Query | undefined;
  if (query === undefined) {
    query = build(db);
    queries.set(name, query);
  }
  return query;
}
