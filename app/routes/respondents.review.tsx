import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Alert } from "~/components/ui/alert";
import { SubmitButton } from "~/components/ui/submit-button";
import { isDomainError } from "~/domain/errors";
import { reviewFacts } from "~/domain/respondent-review";
import { reviewSchema } from "~/lib/schemas.server";
import { formatDateTime } from "~/lib/format";
import { readForm } from "~/lib/submission.server";
import { redirectWithFlash } from "~/services/flash.server";
import { reviewEntry, reviewQueue } from "~/services/respondents.server";
import { requireAdmin } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Review respondents" }];

/** /respondents/review (admins): the suggestions and reassessment requests waiting for a decision. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { services } = await requireAdmin(request, context);
  return json({ queue: await reviewQueue(services) });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireAdmin(request, context);
  const parsed = reviewSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) return json({ error: "Choose a request and a decision" }, { status: 400 });
  try {
    const { status } = await reviewEntry(services, viewer, parsed.data);
    return redirectWithFlash(
      "/respondents/review",
      { kind: "success", message: `The request is ${status}; the member is told by e-mail.` },
      services.config,
    );
  } catch (error) {
    if (isDomainError(error)) return json({ error: error.message }, { status: error.status });
    throw error;
  }
}

export default function ReviewRespondents() {
  const { queue } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <section className="card" aria-labelledby="review-title">
      <h1 id="review-title">Suggestions and reassessment requests</h1>
      {reply?.error ? <Alert kind="error">{reply.error}</Alert> : null}
      {queue.length === 0 ? <p>Nothing waits for a review.</p> : null}
      {queue.map((item) => {
        const title = item.kind === "suggestion" ? `Suggestion #${item.number}` : `Reassessment #${item.number}`;
        return (
          <article key={item.id} className="version" aria-labelledby={`review-${item.id}`}>
            <h2 id={`review-${item.id}`}>
              {title}: {String(item.data.name ?? item.data.respondentName ?? "")}
            </h2>
            <p className="muted">
              From {item.from ?? "a former member"} · {formatDateTime(item.createdAt)}
            </p>
            <dl className="facts">
              {reviewFacts(item.kind, item.data).map(([label, value]) => (
                <div key={label} style={{ display: "contents" }}>
                  <dt>{label}</dt>
                  <dd>{value}</dd>
                </div>
              ))}
            </dl>
            <Form method="post" className="form">
              <input type="hidden" name="entry" value={item.id} />
              <div className="field">
                <label htmlFor={`note-${item.id}`}>Note to the member (optional)</label>
                <textarea id={`note-${item.id}`} name="note" rows={2} maxLength={1000} />
              </div>
              <div className="actions">
                <SubmitButton name="intent" value="approve" pendingText="Approving…">
                  Approve
                </SubmitButton>
                <SubmitButton name="intent" value="reject" className="button" pendingText="Rejecting…">
                  Reject
                </SubmitButton>
              </div>
            </Form>
          </article>
        );
      })}
    </section>
  );
}
