import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { EditorList } from "~/components/nol/editor-list";
import { isDomainError } from "~/domain/errors";
import { editorFormSchema } from "~/lib/schemas.server";
import { parseSubmission, replyWith, replyWithError } from "~/lib/submission.server";
import { addEditor, editorsOf, removeEditor } from "~/services/nol/editors.server";
import { requireMember } from "~/services/session.server";
import { redirectWithFlash } from "~/services/flash.server";

export const meta: MetaFunction = () => [{ title: "Editors of your notices" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  return json(await editorsOf(services.db, viewer.member.id));
}

/** Adds or removes an editor of the member's notices. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const { submission } = await parseSubmission(request, editorFormSchema);
  if (submission.status !== "success") return replyWith(submission);
  const { intent, username } = submission.value;
  try {
    await (intent === "add" ? addEditor : removeEditor)(services, viewer, username);
  } catch (error) {
    if (isDomainError(error)) return replyWithError(submission, error);
    throw error;
  }
  const message =
    intent === "add" ? `${username} can now edit your notices.` : `${username} no longer edits your notices.`;
  return redirectWithFlash("/nol/editor", { kind: "success", message }, services.config);
}

export default function NolEditors() {
  return <EditorList data={useLoaderData<typeof loader>()} lastResult={useActionData<typeof action>()?.result} />;
}
