import { createHash } from "node:crypto";
import type { AppServices } from "~/context";
import { notFound } from "~/domain/errors";
import { versionCalendar } from "~/domain/nol/calendar";
import type { Viewer } from "../session.server";
import { versionState } from "./entries.server";
import { causeOf, type PageAddress } from "./pages.server";
import { versionTimeline } from "./timeline.server";

/**
 * A version's calendar file: the days its respondents' windows end and its next rounds may go
 * out. The events keep their ids from one download to the next, so a calendar that imports the
 * file again updates them instead of adding copies.
 */
export async function versionCalendarFile(
  services: AppServices,
  viewer: Viewer,
  address: PageAddress,
  input: { cause: string; version: string | undefined },
) {
  const place = await causeOf(services, viewer, address, input.cause);
  const { version } = input;
  if (!version || !place.rows.some((row) => row.descriptiveVersion === version))
    throw notFound("This version has no notices yet");
  const state = versionState(place.rows, version);
  const now = new Date();
  const base = new URL(services.config.baseUrl);
  const page = new URL(place.causeBase, base);
  page.searchParams.set("version", version);
  const id = createHash("sha256").update(`${place.owner.id}|${place.cause.code}|${version}`).digest("hex");
  return {
    name: `${place.cause.slug}-${version.replace(/[^\w-]+/g, "-").slice(0, 60)}.ics`,
    body: versionCalendar({
      title: `${place.cause.name} · ${version}`,
      uidPrefix: id.slice(0, 24),
      host: base.hostname,
      url: page.href,
      timeline: versionTimeline(services.config, place.cause.windows, state, now),
      now,
    }),
  };
}
