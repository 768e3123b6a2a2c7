import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./database-unavailable.server";

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe("isDatabaseUnavailable", () => {
  it.each([
    ["a refused connection", withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED")],
    ["an administrator's shutdown", withCode("terminating connection due to administrator command", "57P01")],
    ["a connection failure of class 08", withCode("could not connect", "08006")],
    ["a connection that ended", new Error("Connection terminated unexpectedly")],
    ["a closed PGlite", new Error("PGlite is closed")],
    ["a driver error wrapped by the query builder", new Error("Failed query", { cause: withCode("x", "ECONNRESET") })],
    ["one refusal per address tried", new AggregateError([withCode("x", "ECONNREFUSED")], "")],
  ])("is true for %s", (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ["a unique violation", withCode("duplicate key value", "23505")],
    ["a syntax error", withCode("syntax error at or near", "42601")],
    ["a plain error", new Error("Something else")],
    ["a value that is no error", "ECONNREFUSED"],
  ])("is false for %s", (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
