import { json } from "@remix-run/node";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "~/db/client.server";
import { causes } from "~/db/schema";
import { UNKNOWN_CAUSE } from "~/domain/nol/causes";
import { hasNul } from "~/domain/requests";
import { AccessError } from "./nol.server";

/** Turns the access errors of the services into JSON answers. */
export async function apiCall(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AccessError) return json({ error: error.message }, { status: error.status });
    throw error;
  }
}

/** Reads a JSON body against a schema: a 400 with the reason, or the data. */
export async function readJson<T extends z.ZodTypeAny>(
  request: Request,
  schema: T,
): Promise<{ ok: true; data: z.infer<T> } | { ok: false; response: Response }> {
  if (!(request.headers.get("content-type") ?? "").includes("application/json")) {
    return {
      ok: false,
      response: json({ error: "Send a JSON body (Content-Type: application/json)" }, { status: 415 }),
    };
  }
  let body: unknown;
  try {
    const text = await request.text();
    if (hasNul(text))
      return {
        ok: false,
        response: json({ error: "The body contains a character that cannot be used" }, { status: 400 }),
      };
    body = JSON.parse(text);
  } catch {
    return { ok: false, response: json({ error: "The body is not valid JSON" }, { status: 400 }) };
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    return {
      ok: false,
      response: json({ error: "Invalid body", fieldErrors: parsed.error.flatten().fieldErrors }, { status: 400 }),
    };
  }
  return { ok: true, data: parsed.data };
}

export async function causeExists(db: Database, code: string): Promise<boolean> {
  const rows = await db.select({ code: causes.code }).from(causes).where(eq(causes.code, code)).limit(1);
  return rows.length > 0;
}

export const unknownCause = () => json({ error: UNKNOWN_CAUSE }, { status: 400 });
