import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import {
  Form,
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useLocation,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { useNonce } from "./components/nonce";
import { Alert } from "./components/ui/alert";
import { useLoginRecheck } from "./components/use-login-recheck";
import { communityFor } from "./domain/community";
import { isFrameablePath } from "./domain/framing";
import { guard } from "./domain/guard";
import { usernameChangeMessage } from "./domain/session-state";
import { forgetState, inFrame, replaceState } from "./lib/state-client";
import { appServices } from "./services/app.server";
import { getViewer, loginRedirect, readFlash, sessionState, StateHeaderError } from "./services/session.server";
import stylesheet from "./styles/app.css";

export const links: LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "stylesheet", href: stylesheet },
];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.community.name ?? "Members" },
  { name: "description", content: data?.community.description ?? "" },
];

/** The navigation guard runs on every navigation (spec §2.3). */
export const shouldRevalidate = () => true;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const services = await appServices(context);
  const { config } = services;
  const viewer = await getViewer(request, services).catch((error) => {
    if (error instanceof StateHeaderError) return null;
    throw error;
  });
  const url = new URL(request.url);
  const decision = guard(
    url.pathname,
    url.search,
    viewer ? { userId: viewer.user.id, needsSetup: viewer.member.needsSetup } : null,
  );
  if (decision.kind === "login") {
    throw decision.remember ? await loginRedirect(request, config) : redirect("/login");
  }
  if (decision.kind === "setup") throw redirect("/setup");
  const { flash, clear } = await readFlash(request, config);
  return json(
    {
      community: communityFor(config.community),
      session: viewer ? sessionState(viewer, config) : null,
      flash,
      supportEmail: config.supportEmail,
    },
    { headers: clear ? { "Set-Cookie": clear } : {} },
  );
}

function Document({ children, title }: { children: ReactNode; title?: string }) {
  const nonce = useNonce();
  // Framed pages may have no storage at all (third-party frames); scroll restoration needs it.
  const framed = isFrameablePath(useLocation().pathname);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#5990cc" />
        {title ? <title>{title}</title> : null}
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        {framed ? null : <ScrollRestoration nonce={nonce} />}
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

function TopNav({ session }: { session: NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["session"]> }) {
  return (
    <nav className="topnav" aria-label="Main">
      <div className="topnav-inner">
        <Link to="/" className="topnav-brand">
          Community home
        </Link>
        {session.admin ? (
          <>
            <Link to="/members">Members</Link>
            <Link to="/coupon/discounts">Coupons</Link>
          </>
        ) : null}
        <Link to="/profile">{session.agent ?? session.username}</Link>
        <span className="topnav-user">{session.email}</span>
        <Form method="post" action="/logout">
          <button type="submit" className="link-button">
            Logout
          </button>
        </Form>
      </div>
    </nav>
  );
}

function AgentBanner({ agent }: { agent: string }) {
  return (
    <div className="banner banner-agent" role="status">
      WARNING, representing: {agent}
      <Form method="post" action="/admin" className="inline">
        <input type="hidden" name="intent" value="stop-agent" />
        <button type="submit" className="link-button">
          Stop representing
        </button>
      </Form>
    </div>
  );
}

export default function App() {
  const { community, session, flash, supportEmail } = useLoaderData<typeof loader>();
  const recheck = useLoginRecheck(session);

  // The page's state goes where API calls read it (DESIGN.md §4).
  useEffect(() => {
    if (inFrame()) return;
    if (session) {
      replaceState(session.stateString, session.stateHash);
      window.localStorage.removeItem("afterLogin");
    } else {
      forgetState();
    }
  }, [session]);

  return (
    <Document>
      <div className="page">
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        {session?.agent ? <AgentBanner agent={session.agent} /> : null}
        {session ? <TopNav session={session} /> : null}
        <main id="main" className="page-main">
          {recheck === "rejected" ? (
            <div className="flash">
              <Alert kind="error">{usernameChangeMessage(supportEmail)}</Alert>
            </div>
          ) : null}
          {flash ? (
            <div className="flash">
              <Alert kind={flash.kind}>{flash.message}</Alert>
            </div>
          ) : null}
          <Outlet />
        </main>
        <footer className="page-footer">
          <span>{community.name}</span>
        </footer>
      </div>
    </Document>
  );
}

function errorMessage(error: unknown, status: number): string {
  if (status === 404) return "This page could not be found";
  if (isRouteErrorResponse(error)) {
    if (typeof error.data === "string" && error.data) return error.data;
    if (error.data && typeof error.data === "object" && "error" in error.data && typeof error.data.error === "string") {
      return error.data.error;
    }
    return error.statusText || "Error";
  }
  return "Error";
}

export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<typeof loader>("root");
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message = errorMessage(error, status);
  return (
    <Document title={`${status} · ${message}`}>
      <div className="page">
        {data?.session ? <TopNav session={data.session} /> : null}
        <main id="main" className="page-main">
          <section className="card error-page" aria-labelledby="error-title">
            <p className="error-status">{status}</p>
            <h1 id="error-title">{message}</h1>
            {status === 404 ? <Link to="/">Back to the home page</Link> : null}
          </section>
        </main>
        <footer className="page-footer">
          <span>{data?.community.name ?? ""}</span>
        </footer>
      </div>
    </Document>
  );
}
