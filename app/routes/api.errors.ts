import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { tooMany } from "~/domain/errors";
import { withApiErrors } from "~/lib/http.server";
import { appServices } from "~/services/app.server";
import { parseJsonText, parseWith, postOnly, readCappedText } from "~/lib/json-body.server";
import { ERROR_BODY_LIMIT, errorReportsSchema, storeErrorReports } from "~/services/errors.server";
import { hitRateLimit } from "~/services/rate-limit.server";
import { getViewer } from "~/services/session.server";

/** POST /api/errors: an array of client error reports (spec §7, §8). */
export function action({ request, context }: ActionFunctionArgs) {
  return withApiErrors(async () => {
    if (request.method !== "POST") return postOnly();
    const services = await appServices(context);
    const text = await readCappedText(request, ERROR_BODY_LIMIT);
    if (text === null) return json({ error: `The reports exceed ${ERROR_BODY_LIMIT} bytes` }, { status: 413 });
    const limit = await hitRateLimit(services.db, `errors:ip:${context.clientIp}`, 30, 60);
    if (!limit.ok) throw tooMany("Too many reports", limit.retryAfterSeconds);
    const reports = parseWith(
      errorReportsSchema,
      parseJsonText(text, "The body must be a JSON array of error reports"),
      "Invalid error reports",
    );
    const viewer = await getViewer(request, services).catch(() => null);
    await storeErrorReports(services.db, reports, {
      userId: viewer?.user.id ?? null,
      ip: context.clientIp,
      userAgent: request.headers.get("user-agent"),
    });
    return json({ stored: reports.length }, { status: 201 });
  });
}

export const loader = postOnly;
