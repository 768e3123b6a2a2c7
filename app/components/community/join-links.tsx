import { Link } from "@remix-run/react";

/** The two ways in for a visitor: sign up (the main one) or log in. */
export function JoinLinks() {
  return (
    <div className="actions">
      <Link className="button button-primary" to="/signup">
        Sign Up
      </Link>
      <Link className="button" to="/login">
        Login
      </Link>
    </div>
  );
}
