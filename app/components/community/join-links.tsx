import { Link } from "@remix-run/react";

/** The two ways in for a visitor: sign up (the main one) or log in. */
export function JoinLinks({ signupLabel = "Sign Up" }: { signupLabel?: string }) {
  return (
    <div className="actions">
      <Link className="button button-primary" to="/signup">
        {signupLabel}
      </Link>
      <Link className="button" to="/login">
        Login
      </Link>
    </div>
  );
}
