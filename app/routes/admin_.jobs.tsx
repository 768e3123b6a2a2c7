import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { JobsPage } from "~/components/admin/jobs";
import { notFoundPage } from "~/lib/http.server";
import { JOB_STATES, jobsOverview, jobsQuerySchema } from "~/services/jobs.server";
import { requireAdmin } from "~/services/session.server";

// admin_: its own page at /admin/jobs, not a part drawn inside the /admin page.
export const handle = { layout: "container" };

export const meta: MetaFunction = () => [{ title: "Background jobs" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { services } = await requireAdmin(request, context);
  const query = jobsQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) notFoundPage();
  return json({ ...(await jobsOverview(services, query.data.state ?? null)), states: JOB_STATES });
}

export default function Jobs() {
  const data = useLoaderData<typeof loader>();
  return <JobsPage {...data} />;
}
