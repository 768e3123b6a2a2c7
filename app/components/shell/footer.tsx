import { PageLink } from "~/components/page-link";
import { lazy, Suspense, useState } from "react";
import type { SeamlessEmbed } from "~/lib/seamless-embed";

// The support form (with the form library and its schema) is loaded when the member first
// opens it: a page that has no form of its own ships none.
const SupportDialog = lazy(() => import("~/components/support").then((m) => ({ default: m.SupportDialog })));

export function Footer({ name, email, embed }: { name: string; email: string; embed: SeamlessEmbed | null }) {
  const [supportOpen, setSupportOpen] = useState(false);
  const [supportLoaded, setSupportLoaded] = useState(false);
  return (
    <footer className="page-footer">
      <span className="footer-name">{name}</span>
      <nav aria-label="Footer">
        <ul className="footer-links">
          <li>
            <PageLink to="/terms-of-service">Terms of Service</PageLink>
          </li>
          <li>
            <PageLink to="/privacy-policy">Privacy Policy</PageLink>
          </li>
          <li>
            <a
              href="/support"
              onClick={(event) => {
                event.preventDefault();
                setSupportLoaded(true);
                setSupportOpen(true);
              }}
            >
              Support
            </a>
          </li>
        </ul>
      </nav>
      {supportLoaded ? (
        <Suspense
          fallback={
            <p className="muted" role="status">
              Opening the support form…
            </p>
          }
        >
          <SupportDialog email={email} embed={embed} open={supportOpen} onClose={() => setSupportOpen(false)} />
        </Suspense>
      ) : null}
    </footer>
  );
}
