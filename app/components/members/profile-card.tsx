import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import type { ProfilePage } from "~/domain/profile";

const TABS: { page: ProfilePage; label: string; to: string }[] = [
  { page: "account", label: "Account", to: "/profile" },
  { page: "security", label: "Security", to: "/profile/security" },
  { page: "notices", label: "Notices and documents", to: "/profile/notices" },
  { page: "billing", label: "Membership and billing", to: "/profile/billing" },
];

/** The profile's pages, each a link; the one shown is the current page. */
export function ProfileNav({ current }: { current: ProfilePage }) {
  return (
    <nav aria-label="Profile" className="profile-nav">
      <ul>
        {TABS.map((tab) => (
          <li key={tab.page}>
            <Link to={tab.to} aria-current={tab.page === current ? "page" : undefined}>
              {tab.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** A profile page's card: the profile's tabs, the page's heading, and the page. */
export function ProfileCard({ page, title, children }: { page: ProfilePage; title: string; children: ReactNode }) {
  return (
    <section className="card" aria-labelledby="profile-title">
      <ProfileNav current={page} />
      <h1 id="profile-title">{title}</h1>
      {children}
    </section>
  );
}
