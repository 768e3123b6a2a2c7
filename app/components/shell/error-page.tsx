import { isRouteErrorResponse } from "@remix-run/react";
import { PageLink } from "~/components/page-link";
import { Component, type ReactNode } from "react";
import { NOT_FOUND_MESSAGE } from "~/domain/errors";

/** The words of an error page: the server's message, never Remix's internal details. */
export function errorMessage(error: unknown, status: number): string {
  // Remix's own "no route matches" carries internal details: never show them.
  const internal = isRouteErrorResponse(error) && (error as { internal?: boolean }).internal === true;
  if (status === 404 && (internal || !isRouteErrorResponse(error) || typeof error.data !== "string" || !error.data)) {
    return NOT_FOUND_MESSAGE;
  }
  if (isRouteErrorResponse(error)) {
    if (typeof error.data === "string" && error.data) return error.data;
    if (error.data && typeof error.data === "object" && "error" in error.data && typeof error.data.error === "string") {
      return error.data.error;
    }
    return error.statusText || "Error";
  }
  return "Error";
}

/**
 * spec §2.4 "Error page: shows the message, and for 404 a 'Back to the home page' link."
 * Every error page has that way back: a refusal (403) leaves the member as stuck as a page
 * not found. The message is the heading; the status is a small note under it.
 * A page may add a plain line under the message (`children`).
 */
export function ErrorCard({ status, message, children }: { status: number; message: string; children?: ReactNode }) {
  return (
    <section className="card error-page" aria-labelledby="error-title">
      <h1 id="error-title">{message}</h1>
      {children ? <p>{children}</p> : null}
      <p>
        <PageLink to="/">Back to the home page</PageLink>
      </p>
      <p className="error-status">Error {status}</p>
    </section>
  );
}

/** Renders its fallback if the error page itself fails to render. */
export class ErrorPageGuard extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <main id="main" className="page-main">
        <section className="card error-page">
          <h1>An error occurred while showing the error page</h1>
          <a href="/">Go back to home</a>
        </section>
      </main>
    );
  }
}
