import type { SubmissionResult } from "@conform-to/react";
import type { SerializeFrom } from "@remix-run/node";
import { Form, Link } from "@remix-run/react";
import { Field, formProps, useSchemaForm } from "~/components/forms/fields";
import { ConfirmButton } from "~/components/ui/confirm-button";
import { SubmitButton } from "~/components/ui/submit-button";
import type { editorsOf } from "~/services/nol/editors.server";

type Data = SerializeFrom<Awaited<ReturnType<typeof editorsOf>>>;

/** Who edits the member's notices (with a way to add and remove them), and whose the member edits. */
export function EditorList({ data, lastResult }: { data: Data; lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useSchemaForm(() => import("~/domain/nol/editors").then((m) => m.editorFormSchema), {
    lastResult,
  });
  return (
    <section className="card" aria-labelledby="editors-title">
      <p>
        <Link to="/nol/creator">Notice creator</Link>
      </p>
      <h1 id="editors-title">Editors of your notices</h1>
      <p className="lead">An editor can see and continue your notices for you.</p>
      {data.editors.length === 0 ? <p>No one else edits your notices.</p> : null}
      <ul>
        {data.editors.map((e) => (
          <li key={e.username}>
            {e.username}{" "}
            <Form method="post" className="inline">
              <input type="hidden" name="intent" value="remove" />
              <input type="hidden" name="username" value={e.username} />
              <ConfirmButton className="link-button">Remove</ConfirmButton>
            </Form>
          </li>
        ))}
      </ul>
      <Form method="post" className="form" {...formProps(form)}>
        <input type="hidden" name="intent" value="add" />
        <Field meta={fields.username} label="Username of the new editor" />
        <div className="actions">
          <SubmitButton pendingText="Adding…">Add editor</SubmitButton>
        </div>
      </Form>
      {data.editing.length > 0 ? (
        <>
          <h2>Notices you edit</h2>
          <ul>
            {data.editing.map((e) => (
              <li key={e.username}>
                <Link to={`/nol/creator?username=${encodeURIComponent(e.username)}`}>{e.username}</Link>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
