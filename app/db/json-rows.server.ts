import { getTableColumns, type InferSelectModel, type Table } from "drizzle-orm";

/**
 * A table's rows as `to_jsonb(row)` gives them inside a larger query's JSON, read as drizzle
 * reads the rows themselves: each column by its SQL name, through the column's own mapping
 * (a timestamp becomes a Date, a bigint a number…).
 */
export function rowsFromJson<T extends Table>(
  table: T,
  rows: readonly Record<string, unknown>[],
): InferSelectModel<T>[] {
  const columns = Object.entries(getTableColumns(table));
  return rows.map((json) => {
    const row: Record<string, unknown> = {};
    for (const [key, column] of columns) {
      const value = json[column.name];
      row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return row as InferSelectModel<T>;
  });
}
