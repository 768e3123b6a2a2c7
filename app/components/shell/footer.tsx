import { Link } from "@remix-run/react";
import { useState } from "react";
import { SupportDialog } from "~/components/support";

export function Footer({ name, email }: { name: string; email: string }) {
  const [supportOpen, setSupportOpen] = useState(false);
  return (
    <footer className="page-footer">
      <span className="footer-name">{name}</span>
      <nav aria-label="Footer">
        <ul className="footer-links">
          <li>
            <Link to="/terms-of-service">Terms of Service</Link>
          </li>
          <li>
            <Link to="/privacy-policy">Privacy Policy</Link>
          </li>
          <li>
            <a
              href="/support"
              onClick={(event) => {
                event.preventDefault();
                setSupportOpen(true);
              }}
            >
              Support
            </a>
          </li>
        </ul>
      </nav>
      <SupportDialog email={email} open={supportOpen} onClose={() => setSupportOpen(false)} />
    </footer>
  );
}
