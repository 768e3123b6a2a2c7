import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import {
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useLoaderData,
  useLocation,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { Component, useEffect, useState, type ReactNode } from "react";
import { AppShell, type Layout } from "./components/app-shell";
import { useNonce } from "./components/nonce";
import { useLoginRecheck } from "./components/use-login-recheck";
import { communityFor, footerName } from "./domain/community";
import { isFrameablePath } from "./domain/framing";
import { guard } from "./domain/guard";
import { decodedSegment } from "./domain/requests";
import { isChunkLoadError, reloadAfterChunkError, reportClientError } from "./lib/error-reporting";
import { forgetState, inFrame, replaceState } from "./lib/state-client";
import { appServices } from "./services/app.server";
import { verifiedDiscount } from "./services/coupons.server";
import {
  getViewer,
  loginRedirect,
  readFlash,
  sessionState,
  siteCookies,
  StateHeaderError,
} from "./services/session.server";
import stylesheet from "./styles/app.css";

export const links: LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "stylesheet", href: stylesheet },
];

export const meta: MetaFunction<typeof loader> = ({ data, error }) => {
  if (error) {
    const status = isRouteErrorResponse(error) ? error.status : 500;
    return [{ title: `${status} · ${errorMessage(error, status)}` }];
  }
  return [
    { title: data?.community.name ?? "Members" },
    { name: "description", content: data?.community.description ?? "" },
  ];
};

/** The navigation guard runs on every navigation (spec §2.3). */
export const shouldRevalidate = () => true;

async function couponBanner(request: Request, services: Awaited<ReturnType<typeof appServices>>) {
  const cookies = siteCookies(services.config);
  const header = request.headers.get("cookie");
  // On a coupon landing the offer in the path is the one to show, even before its cookie is back.
  const landing = /^\/c\/([^/]+)/.exec(new URL(request.url).pathname)?.[1];
  const slug = landing ? decodedSegment(landing) : await cookies.coupon.parse(header);
  if (typeof slug !== "string") return null;
  const discount = await verifiedDiscount(services.db, slug);
  if (!discount) return null;
  const dismissed = (await cookies.couponDismissed.parse(header)) === discount.slug;
  return { slug: discount.slug, description: discount.description, groupName: discount.groupName, dismissed };
}

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
      coupon: viewer?.subscription ? null : await couponBanner(request, services),
    },
    { headers: clear ? { "Set-Cookie": clear } : {} },
  );
}

function Document({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  // Framed pages may have no storage at all (third-party frames); scroll restoration needs it.
  const framed = isFrameablePath(useLocation().pathname);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#5990cc" />
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

/** The layout a route asks for in its `handle`; the deepest one wins. */
function useLayout(): Layout {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const layout = (matches[i]?.handle as { layout?: Layout } | undefined)?.layout;
    if (layout) return layout;
  }
  return "default";
}

/** Reports uncaught errors, shows the red bar, and reloads once after a failed chunk load. */
function useClientErrors(): boolean {
  const [detected, setDetected] = useState(false);
  useEffect(() => {
    const handle = (error: unknown, message: string) => {
      if (isChunkLoadError(message) && reloadAfterChunkError()) return;
      reportClientError(error);
      setDetected(true);
    };
    const onError = (event: ErrorEvent) => handle(event.error ?? event.message, event.message ?? "");
    const onRejection = (event: PromiseRejectionEvent) =>
      handle(event.reason, event.reason instanceof Error ? event.reason.message : String(event.reason));
    window.addEventListener("error", onError);
    window.addEventListener("unhandledrejection", onRejection);
    return () => {
      window.removeEventListener("error", onError);
      window.removeEventListener("unhandledrejection", onRejection);
    };
  }, []);
  return detected;
}

export default function App() {
  const data = useLoaderData<typeof loader>();
  const { session } = data;
  const layout = useLayout();
  const { pathname, search } = useLocation();
  const recheck = useLoginRecheck(session);
  const errorDetected = useClientErrors();

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
      <AppShell
        layout={layout}
        pathname={pathname}
        search={search}
        session={session}
        flash={data.flash}
        coupon={data.coupon}
        footerName={footerName(pathname, data.community)}
        homeLabel={data.community.homeLabel}
        supportEmail={data.supportEmail}
        errorDetected={errorDetected}
        stateRejected={recheck === "rejected"}
      >
        <Outlet />
      </AppShell>
    </Document>
  );
}

function errorMessage(error: unknown, status: number): string {
  // Remix's own "no route matches" carries internal details: never show them.
  const internal = isRouteErrorResponse(error) && (error as { internal?: boolean }).internal === true;
  if (status === 404 && (internal || !isRouteErrorResponse(error) || typeof error.data !== "string" || !error.data)) {
    return "This page could not be found";
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

/** Renders its fallback if the error page itself fails to render. */
class ErrorPageGuard extends Component<{ children: ReactNode }, { failed: boolean }> {
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

export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<typeof loader>("root");
  const { pathname, search } = useLocation();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message = errorMessage(error, status);
  useEffect(() => {
    // Answers the server chose (404, 403) are not faults; anything else is reported.
    if (!isRouteErrorResponse(error)) reportClientError(error);
  }, [error]);
  return (
    <Document>
      <ErrorPageGuard>
        <AppShell
          layout="default"
          pathname={pathname}
          search={search}
          session={data?.session ?? null}
          flash={null}
          coupon={null}
          footerName={data ? footerName(pathname, data.community) : ""}
          homeLabel={data?.community.homeLabel ?? "Home"}
          supportEmail={data?.supportEmail ?? ""}
          errorDetected={!isRouteErrorResponse(error)}
          stateRejected={false}
        >
          <section className="card error-page" aria-labelledby="error-title">
            <p className="error-status">{status}</p>
            <h1 id="error-title">{message}</h1>
            {status === 404 ? <Link to="/">Back to the home page</Link> : null}
          </section>
        </AppShell>
      </ErrorPageGuard>
    </Document>
  );
}
