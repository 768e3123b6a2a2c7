import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { failureMessage, useFrameSession } from "~/components/frame-session";
import { FrameCard } from "~/components/frame-status";
import { Alert } from "~/components/ui/alert";
import { safeLinkHref } from "~/domain/links";
import { entryName } from "~/domain/nol/labels";
import { api } from "~/lib/api-client";
import { appServices } from "~/services/app.server";

export const handle = { layout: "empty" };

export const meta: MetaFunction = () => [{ title: "Your notices" }];

export async function loader({ context }: LoaderFunctionArgs) {
  const { config } = await appServices(context);
  return json({ supportEmail: config.supportEmail, baseUrl: config.baseUrl });
}

type Entry = {
  id: string;
  form: "NoLCreator2" | "NoLProfileBilling" | "NoLBilling";
  cause: string;
  descriptive_version: string;
  tb_value: number | null;
  nol_tracking: boolean[];
  view_link: string;
};

/** The member's notices for the learning site's frame, read through the API with state headers. */
export default function EmbedNols() {
  const { supportEmail, baseUrl } = useLoaderData<typeof loader>();
  const { session } = useFrameSession(supportEmail);
  const [entries, setEntries] = useState<Entry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (session.status !== "signed-in") return;
    api<{ list?: Entry[] }>("/api/entry/nol-member-versions")
      .then(({ data, error: failed }) => {
        if (failed || !data?.list) throw new Error(failed ?? "Your notices could not be read");
        setEntries(data.list);
      })
      .catch((e: unknown) =>
        setError(failureMessage(e, supportEmail, e instanceof Error ? e.message : "Your notices could not be read")),
      );
  }, [session.status, supportEmail]);
  return (
    <FrameCard title="Your notices" titleId="embed-title" session={session}>
      {() =>
        error ? (
          <Alert kind="error">{error}</Alert>
        ) : entries === null ? (
          <p role="status">Loading your notices…</p>
        ) : entries.length === 0 ? (
          <p>You have no notices yet.</p>
        ) : (
          <ul>
            {entries.map((e) => {
              const label = `${e.cause} · ${e.descriptive_version} · ${entryName(e)}`;
              const href = safeLinkHref(e.view_link);
              return (
                <li key={e.id}>
                  {href ? (
                    <a href={new URL(href, `${baseUrl}/`).toString()} target="_blank" rel="noreferrer">
                      {label}
                    </a>
                  ) : (
                    label
                  )}
                </li>
              );
            })}
          </ul>
        )
      }
    </FrameCard>
  );
}
