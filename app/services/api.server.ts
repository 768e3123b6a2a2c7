import { json } from "@remix-run/node";
import type { z } from "zod";
import { invalid } from "~/domain/errors";
import { hasNul } from "~/domain/requests";
import { errorJson } from "~/lib/http.server";

/**
 * Reads a JSON body against a schema and returns the data. Anything else stops the call with
 * its JSON answer, thrown as a Response like `requireApiMember`'s 401: 415 for a body that is
 * not JSON by its type, 400 (an invalid error, with field errors) for one that does not parse
 * or fit the schema.
 */
export async function readJson<T extends z.ZodTypeAny>(request: Request, schema: T): Promise<z.infer<T>> {
  if (!(request.headers.get("content-type") ?? "").includes("application/json")) {
    throw json({ error: "Send a JSON body (Content-Type: application/json)" }, { status: 415 });
  }
  let body: unknown;
  try {
    const text = await request.text();
    if (hasNul(text)) throw errorJson(invalid("The body contains a character that cannot be used"));
    body = JSON.parse(text);
  } catch (error) {
    if (error instanceof Response) throw error;
    throw errorJson(invalid("The body is not valid JSON"));
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw errorJson(invalid("Invalid body", parsed.error.flatten().fieldErrors));
  return parsed.data;
}

/** The answer to a method an API call does not take (its loader, for GET). */
export function postOnly(): Response {
  return json({ error: "Use POST" }, { status: 405, headers: { Allow: "POST" } });
}
