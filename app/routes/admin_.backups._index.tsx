import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { BackupsPage } from "~/components/admin/backups";
import { isDomainError } from "~/domain/errors";
import { backupIntentSchema } from "~/lib/schemas.server";
import { readForm } from "~/lib/submission.server";
import { deleteBackup, listBackups, startBackup } from "~/services/backups/backups.server";
import { redirectWithFlash } from "~/services/flash.server";
import { requireAdmin } from "~/services/session.server";

// admin_: its own page at /admin/backups, not a part drawn inside the /admin page.
export const handle = { layout: "container" };

export const meta: MetaFunction = () => [{ title: "Backups" }];

/** /admin/backups: the backups, the one under way with its progress, and the button that makes one now. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { services } = await requireAdmin(request, context);
  return json(await listBackups(services), { headers: { "Cache-Control": "no-store" } });
}

/** POST /admin/backups: make a backup now (a background job), or delete a finished one. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireAdmin(request, context);
  const intent = backupIntentSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!intent.success) return json({ error: intent.error.issues[0]!.message }, { status: 400 });
  try {
    if (intent.data.intent === "delete") {
      const fileName = await deleteBackup(services, viewer, intent.data.backupId);
      return redirectWithFlash("/admin/backups", { kind: "success", message: `Deleted ${fileName}.` }, services.config);
    }
    await startBackup(services, viewer);
    return redirectWithFlash(
      "/admin/backups",
      { kind: "success", message: "The backup is under way; its progress shows below." },
      services.config,
    );
  } catch (error) {
    if (isDomainError(error) && error.status < 500) return json({ error: error.message }, { status: error.status });
    throw error;
  }
}

export default function Backups() {
  const data = useLoaderData<typeof loader>();
  return <BackupsPage {...data} message={useActionData<typeof action>()?.error ?? null} />;
}
