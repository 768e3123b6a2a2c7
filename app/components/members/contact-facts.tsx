import type { ReactNode } from "react";

/**
 * E-mail, name and country, as the profile and the admins' member page both show them: the
 * country already in words, so this module carries no list of countries.
 */
export function contactFacts(
  member: { email: string; name: string | null },
  emailNote: ReactNode,
  country: string | null,
): [string, ReactNode][] {
  return [
    [
      "E-mail",
      <>
        {member.email} {emailNote}
      </>,
    ],
    ["Name", member.name ?? "—"],
    ["Country", country ?? "—"],
  ];
}
