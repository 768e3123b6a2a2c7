import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { ConfirmButton } from "~/components/ui/confirm-button";
import { Field } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { usernameSchema } from "~/domain/account";
import { formFailure, readForm } from "~/services/forms.server";
import { addEditor, editorsOf, removeEditor } from "~/services/nol.server";
import { redirectWithFlash, requireMember } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Editors of your notices" }];

const intentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("add"), username: usernameSchema }),
  z.object({ intent: z.literal("remove"), username: usernameSchema }),
]);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  return json(await editorsOf(services.db, viewer.member.id));
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const form = await readForm(request);
  const parsed = intentSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return formFailure(form, { username: ["Enter a username"] });
  if (parsed.data.intent === "remove") {
    await removeEditor(services, viewer, parsed.data.username);
    return redirectWithFlash(
      "/nol/editor",
      { kind: "success", message: `${parsed.data.username} no longer edits your notices.` },
      services.config,
    );
  }
  const result = await addEditor(services, viewer, parsed.data.username);
  if (!result.ok) return formFailure(form, { username: [result.message] });
  return redirectWithFlash(
    "/nol/editor",
    { kind: "success", message: `${parsed.data.username} can now edit your notices.` },
    services.config,
  );
}

export default function NolEditors() {
  const { editors, editing } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  return (
    <section className="card" aria-labelledby="editors-title">
      <p>
        <Link to="/nol/creator">Notice creator</Link>
      </p>
      <h1 id="editors-title">Editors of your notices</h1>
      <p className="lead">An editor can see and continue your notices for you.</p>
      {editors.length === 0 ? <p>No one else edits your notices.</p> : null}
      <ul>
        {editors.map((e) => (
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
      <Form method="post" className="form" noValidate>
        <input type="hidden" name="intent" value="add" />
        <Field
          label="Username of the new editor"
          name="username"
          required
          defaultValue={failure?.values.username}
          errors={failure?.fieldErrors.username}
        />
        <div className="actions">
          <SubmitButton pendingText="Adding…">Add editor</SubmitButton>
        </div>
      </Form>
      {editing.length > 0 ? (
        <>
          <h2>Notices you edit</h2>
          <ul>
            {editing.map((e) => (
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
