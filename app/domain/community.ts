/** The two community variants of spec §1, chosen by the COMMUNITY setting. */
export type CommunityVariant = "default" | "church";

export type Community = {
  variant: CommunityVariant;
  name: string;
  memberNoun: string;
  description: string;
};

const communities: Record<CommunityVariant, Community> = {
  default: {
    variant: "default",
    name: "Memberhall Community",
    memberNoun: "member",
    description:
      "A members' community that helps you prepare, notarize and deliver Notices of Liability, follow each round through to billing, and support one another along the way.",
  },
  church: {
    variant: "church",
    name: "Memberhall Fellowship",
    memberNoun: "member of the fellowship",
    description:
      "A fellowship that walks with its members as they prepare, notarize and deliver Notices of Liability, follow each round through to billing, and stand together in good faith.",
  },
};

export function communityFor(variant: CommunityVariant): Community {
  return communities[variant];
}
