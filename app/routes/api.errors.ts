import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { hasNul } from "~/domain/requests";
import { appServices } from "~/services/app.server";
import { ERROR_BODY_LIMIT, errorReportsSchema, readCappedText, storeErrorReports } from "~/services/errors.server";
import { hitRateLimit } from "~/services/rate-limit.server";
import { getViewer } from "~/services/session.server";

/** POST /api/errors: an array of client error reports (spec §7, §8). */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return json({ error: "Use POST" }, { status: 405, headers: { Allow: "POST" } });
  const services = await appServices(context);
  const text = await readCappedText(request, ERROR_BODY_LIMIT);
  if (text === null) return json({ error: `The reports exceed ${ERROR_BODY_LIMIT} bytes` }, { status: 413 });
  const limit = await hitRateLimit(services.db, `errors:ip:${context.clientIp}`, 30, 60);
  if (!limit.ok) {
    return json(
      { error: "Too many reports" },
      { status: 429, headers: { "Retry-After": String(limit.retryAfterSeconds) } },
    );
  }
  if (hasNul(text)) return json({ error: "The body contains a character that cannot be used" }, { status: 400 });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return json({ error: "The body must be a JSON array of error reports" }, { status: 400 });
  }
  const parsed = errorReportsSchema.safeParse(body);
  if (!parsed.success) {
    return json({ error: "Invalid error reports", fieldErrors: parsed.error.flatten() }, { status: 400 });
  }
  const viewer = await getViewer(request, services).catch(() => null);
  await storeErrorReports(services.db, parsed.data, {
    userId: viewer?.user.id ?? null,
    ip: context.clientIp,
    userAgent: request.headers.get("user-agent"),
  });
  return json({ stored: parsed.data.length }, { status: 201 });
}

export async function loader() {
  return json({ error: "Use POST" }, { status: 405, headers: { Allow: "POST" } });
}
