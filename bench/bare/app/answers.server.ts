import { readFileSync } from "node:fs";
import { json } from "@remix-run/node";

/** The app's answers, captured by the benchmark into BENCH_ANSWERS before this server starts. */
const answers = JSON.parse(readFileSync(process.env.BENCH_ANSWERS ?? "answers.json", "utf8")) as Record<
  string,
  unknown
>;

export function answer(name: string) {
  return json(answers[name] ?? null);
}
