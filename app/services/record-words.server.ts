import { inWords } from "~/domain/vocabularies";
import type { recordView } from "./record-views.server";

type RecordView = Awaited<ReturnType<typeof recordView>>;
type ListView = Extract<RecordView, { view: "list" }>;
type ListInWords = Omit<ListView, "columns"> & {
  columns: (ListView["columns"][number] & { wordsOf: Record<string, string> })[];
};

/**
 * A record view with each listed code's words put in on the server: a column that names a
 * vocabulary gets `wordsOf`, the words of every value its rows and its filter's options hold,
 * so that the page's script carries no vocabulary.
 */
export function recordViewInWords(view: RecordView): Exclude<RecordView, ListView> | ListInWords {
  if (view.view !== "list") return view;
  const columns = view.columns.map((column) => {
    if (!column.words) return { ...column, wordsOf: {} as Record<string, string> };
    const codes = new Set<string>();
    for (const row of view.rows) {
      const value = (row as Record<string, unknown>)[column.key];
      if (value !== null && value !== undefined && value !== "") codes.add(String(value));
    }
    if (column.filter?.kind === "equals") for (const option of column.filter.options ?? []) codes.add(option);
    return {
      ...column,
      wordsOf: Object.fromEntries([...codes].map((code) => [code, inWords(column.words, code)])) as Record<
        string,
        string
      >,
    };
  });
  return { ...view, columns };
}
