import type { AppServices } from "~/context";
import { creatorOffer } from "./billing/creator-offer.server";
import { stepHref } from "~/domain/nol/addresses";
import { formForStep } from "~/domain/nol/billing";
import { formatDate } from "~/lib/format";
import { membershipOf } from "./billing/account.server";
import { causeChoices } from "./nol/access.server";
import { entriesOf, versionsOf, versionState } from "./nol/entries.server";
import type { Viewer } from "./session.server";

/**
 * The home page of a signed-in member: what they can do next. A creator or tester sees their
 * causes with each version's next step; everyone sees their membership and their profile; a
 * member who cannot create notices yet is told how to.
 */

const VERSIONS_SHOWN = 5;

async function creatorCauses(services: AppServices, viewer: Viewer) {
  const { choices } = await causeChoices(services, viewer.member);
  const rows = await entriesOf(services.db, viewer.member.id);
  return choices
    .filter((c) => c.enabled)
    .map((cause) => {
      const mine = rows.filter((r) => r.causeCode === cause.code);
      const versions = versionsOf(mine).map((version) => {
        const state = versionState(mine, version);
        const form = formForStep(state.step.kind, state.bills.length > 0);
        return {
          version,
          step: state.step.label,
          href: stepHref(form, cause.slug, state.step.kind, version, null),
        };
      });
      return {
        name: cause.name,
        href: `/nol/creator/${cause.slug}`,
        versions: versions.slice(0, VERSIONS_SHOWN),
        more: Math.max(0, versions.length - VERSIONS_SHOWN),
      };
    });
}

export async function memberHome(services: AppServices, viewer: Viewer) {
  const { member } = viewer;
  const creator = member.nolCreator || member.nolTester;
  const membership = await membershipOf(services, member.id, viewer.subscription);
  return {
    causes: creator ? await creatorCauses(services, viewer) : null,
    hasCountry: member.countryCode !== null,
    creatorOffer: creator ? null : await creatorOffer(services, viewer),
    membership: membership
      ? {
          plan: membership.plan,
          status: membership.statusText,
          renewsOn: membership.renewsOn ? formatDate(membership.renewsOn) : null,
          finishPayment: membership.finishPayment,
        }
      : null,
  };
}
