import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { invalid, tooMany } from "~/domain/errors";
import { withApiErrors } from "~/lib/http.server";
import { appServices } from "~/services/app.server";
import {
  ERROR_BODY_LIMIT,
  errorReportsSchema,
  issuesByPath,
  parseJsonText,
  readCappedText,
  storeErrorReports,
} from "~/services/errors.server";
import { hitRateLimit } from "~/services/rate-limit.server";
import { getViewer } from "~/services/session.server";

const usePost = () => json({ error: "Use POST" }, { status: 405, headers: { Allow: "POST" } });

/** POST /api/errors: an array of client error reports (spec §7, §8). */
export function action({ request, context }: ActionFunctionArgs) {
  return withApiErrors(async () => {
    if (request.method !== "POST") return usePost();
    const services = await appServices(context);
    const text = await readCappedText(request, ERROR_BODY_LIMIT);
    if (text === null) return json({ error: `The reports exceed ${ERROR_BODY_LIMIT} bytes` }, { status: 413 });
    const limit = await hitRateLimit(services.db, `errors:ip:${context.clientIp}`, 30, 60);
    if (!limit.ok) throw tooMany("Too many reports", limit.retryAfterSeconds);
    const parsed = errorReportsSchema.safeParse(parseJsonText(text, "The body must be a JSON array of error reports"));
    if (!parsed.success) throw invalid("Invalid error reports", issuesByPath(parsed.error));
    const viewer = await getViewer(request, services).catch(() => null);
    await storeErrorReports(services.db, parsed.data, {
      userId: viewer?.user.id ?? null,
      ip: context.clientIp,
      userAgent: request.headers.get("user-agent"),
    });
    return json({ stored: parsed.data.length }, { status: 201 });
  });
}

export const loader = usePost;
