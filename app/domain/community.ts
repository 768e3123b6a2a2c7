/** The two community variants of spec §1, chosen by the COMMUNITY setting. */
export type CommunityVariant = "default" | "church";

export type Community = {
  variant: CommunityVariant;
  name: string;
  memberNoun: string;
  /** What the members call the whole: "community" or "fellowship". */
  place: string;
  /** The navigation's link to the home page. */
  homeLabel: string;
  description: string;
};

const communities: Record<CommunityVariant, Community> = {
  default: {
    variant: "default",
    name: "Memberhall Community",
    memberNoun: "member",
    place: "community",
    homeLabel: "Community home",
    description:
      "A members' community that helps you prepare, notarize and deliver Notices of Liability, follow each round through to billing, and support one another along the way.",
  },
  church: {
    variant: "church",
    name: "Memberhall Fellowship",
    memberNoun: "member of the fellowship",
    place: "fellowship",
    homeLabel: "Fellowship home",
    description:
      "A fellowship that walks with its members as they prepare, notarize and deliver Notices of Liability, follow each round through to billing, and stand together in good faith.",
  },
};

export function communityFor(variant: CommunityVariant): Community {
  return communities[variant];
}

/** Community groups with their own pages (/g/{group}); their name replaces the community's in the footer. */
export type CommunityGroup = { slug: string; name: string; description: string };

const groups = {
  inpower: {
    slug: "inpower",
    name: "InPower",
    description:
      "InPower members learn together how to hold officials to account with Notices of Liability, one round at a time.",
  },
  rev18: {
    slug: "rev18",
    name: "Rev 18",
    description: "Rev 18 gathers members who stand together in faith while they prepare and deliver their notices.",
  },
} satisfies Record<string, CommunityGroup>;

export type GroupSlug = keyof typeof groups;

export function groupFor(slug: GroupSlug): CommunityGroup;
export function groupFor(slug: string | undefined): CommunityGroup | null;
export function groupFor(slug: string | undefined): CommunityGroup | null {
  // Own keys only: a path such as /g/constructor names no group.
  return slug && Object.hasOwn(groups, slug) ? groups[slug as GroupSlug] : null;
}

/** The name the footer shows: the group's on /g/{group}, else the community's. */
export function footerName(pathname: string, community: Community): string {
  const match = /^\/g\/([^/]+)/.exec(pathname);
  return groupFor(match?.[1])?.name ?? community.name;
}

/**
 * A member's place in a community group: joined through a group's coupon (a coupon discount
 * with a group name). It is pending while the payment that joins them is still under way,
 * joined once it succeeded; a failed or cancelled payment joins no group.
 */
export type GroupStanding = { state: "none" } | { state: "pending" | "joined"; group: string };

const PENDING_CHECKOUTS = new Set(["open", "requires_action", "processing"]);

export function groupStanding(latest: { status: string; groupName: string | null } | null): GroupStanding {
  if (!latest?.groupName) return { state: "none" };
  if (PENDING_CHECKOUTS.has(latest.status)) return { state: "pending", group: latest.groupName };
  if (latest.status === "succeeded") return { state: "joined", group: latest.groupName };
  return { state: "none" };
}
