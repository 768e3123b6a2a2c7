import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { BackupsPage } from "~/components/admin/backups";
import { isDomainError } from "~/domain/errors";
import { backupIntentSchema } from "~/lib/schemas.server";
import { readForm } from "~/lib/submission.server";
import { deleteBackup, listBackups, startBackup } from "~/services/backups/backups.server";
import { requireStepUp } from "~/services/factors/step-up.server";
import { redirectWithFlash } from "~/services/flash.server";
import { requireAdmin } from "~/services/session.server";

// admin_: its own page at /admin/backups, not a part drawn inside the /admin page.
export const handle = { layout: "container" };

export const meta: MetaFunction = () => [{ title: "Backups" }];

/** /admin/backups: the backups and where each is kept, the one under way with its progress, the test restores. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { services } = await requireAdmin(request, context);
  return json(await listBackups(services), { headers: { "Cache-Control": "no-store" } });
}

/**
 * POST /admin/backups: make a backup now (a background job), test-restored as it is made if asked,
 * or delete a finished one. Both ask
 * for a fresh second factor: a backup is the whole database, and deleting one can take away
 * the copy an admin would restore from.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireAdmin(request, context);
  const form = await readForm(request);
  const intent = backupIntentSchema.safeParse(Object.fromEntries(form));
  if (!intent.success) return json({ error: intent.error.issues[0]!.message }, { status: 400 });
  await requireStepUp(services, viewer, "backup", request, form);
  try {
    if (intent.data.intent === "delete") {
      const fileName = await deleteBackup(services, viewer, intent.data.backupId);
      return redirectWithFlash("/admin/backups", { kind: "success", message: `Deleted ${fileName}.` }, services.config);
    }
    await startBackup(services, viewer, intent.data.intent === "test-restore");
    // No message: the page shows the backup under way, and its end, where a message would stay on.
    return redirect("/admin/backups");
  } catch (error) {
    if (isDomainError(error) && error.status < 500) return json({ error: error.message }, { status: error.status });
    throw error;
  }
}

export default function Backups() {
  const data = useLoaderData<typeof loader>();
  return <BackupsPage {...data} message={useActionData<typeof action>()?.error ?? null} />;
}

/** A step-up prompt in the place of the page when a backup's action asks for a fresh second factor. */
export { StepUpBoundary as ErrorBoundary } from "~/components/factors/step-up-card";
