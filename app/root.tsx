import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import {
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
import { useEffect, type ReactNode } from "react";
import { AppShell, type Layout } from "./components/shell/app-shell";
import { useNonce } from "./components/nonce";
import { ErrorCard, errorMessage, ErrorPageGuard } from "./components/shell/error-page";
import { useClientErrors } from "./components/shell/use-client-errors";
import { useKeptFlash } from "./components/shell/use-kept-flash";
import { useLoginRecheck } from "./components/use-login-recheck";
import { communityFor, footerName } from "./domain/community";
import { isFrameablePath } from "./domain/framing";
import { firstSegment, guard, isPublicPath, setupFirstMessage } from "./domain/guard";
import { decodedSegment } from "./domain/requests";
import { databaseUnavailable, rendersUnavailable } from "./lib/database-unavailable.server";
import { errorPage, pageRedirect } from "./lib/http.server";
import { forgetState, inFrame, replaceState } from "./lib/state-store";
import { appServices } from "./services/app.server";
import { couponBanner } from "./services/coupons.server";
import { requireFactorGate } from "./services/factors/step-up.server";
import { flashHeader, readFlash } from "./services/flash.server";
import { supportEmbed } from "./services/hosted-support.server";
import { getViewer, loginRedirect, sessionState, siteCookies, StateHeaderError } from "./services/session.server";
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

/** The pages where a second factor is set up or passed, open to a member who has not yet. */
const isSecurityPath = (pathname: string) =>
  pathname === "/profile/security" || pathname.startsWith("/profile/security/");

/** The navigation guard runs on every navigation (spec §2.3). */
export const shouldRevalidate = () => true;

/** On a coupon landing the offer in the path is the one to show, even before its cookie is back. */
async function bannerSlug(request: Request, cookies: ReturnType<typeof siteCookies>): Promise<unknown> {
  const landing = /^\/c\/([^/]+)/.exec(new URL(request.url).pathname)?.[1];
  return landing ? decodedSegment(landing) : cookies.coupon.parse(request.headers.get("cookie"));
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  // The server asks again for the page of a request the database failed: the shell's error page.
  if (rendersUnavailable(context)) throw errorPage(databaseUnavailable());
  const services = await appServices(context);
  const { config } = services;
  const viewer = await getViewer(request, services, context).catch((error) => {
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
    throw decision.remember ? await loginRedirect(request, config) : pageRedirect(request, "/login");
  }
  if (decision.kind === "setup") {
    const message = setupFirstMessage(url.pathname);
    throw pageRedirect(
      request,
      "/setup",
      message ? { headers: { "Set-Cookie": await flashHeader(config, { kind: "warn", message }) } } : undefined,
    );
  }
  // Where every member must have a second factor, no page but the security pages opens without it.
  if (viewer && config.mfaRequiredFor === "all" && !isPublicPath(url.pathname) && !isSecurityPath(url.pathname)) {
    await requireFactorGate(services, request, viewer, "page");
  }
  // The way on after logging in shows no page of its own: a message for the page it leads to waits for that page.
  const { flash, clear } =
    firstSegment(url.pathname) === "redirect-login-success"
      ? { flash: null, clear: null }
      : await readFlash(request, config);
  const cookies = siteCookies(config);
  const coupon = viewer?.subscription
    ? null
    : await couponBanner(
        services.db,
        await bannerSlug(request, cookies),
        await cookies.couponDismissed.parse(request.headers.get("cookie")),
      );
  return json(
    {
      community: communityFor(config.community),
      session: viewer ? sessionState(viewer, config) : null,
      navigation: viewer ? { admin: viewer.member.admin, email: viewer.member.email } : null,
      flash,
      supportEmail: config.supportEmail,
      supportEmbed: supportEmbed(services, viewer?.member ?? null),
      coupon,
      // With the built-in mail provider, messages wait in the admins' outbox: pages that say
      // "check your e-mail" say where it went.
      mailOutbox: config.mail === "outbox" ? { demo: config.demo } : null,
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

export default function App() {
  const data = useLoaderData<typeof loader>();
  const { session } = data;
  const layout = useLayout();
  const { pathname, search } = useLocation();
  const recheck = useLoginRecheck(session);
  const errorDetected = useClientErrors();
  const flash = useKeptFlash(data.flash);

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
        navigation={data.navigation}
        flash={flash}
        coupon={data.coupon}
        footerName={footerName(pathname, data.community)}
        homeLabel={data.community.homeLabel}
        supportEmail={data.supportEmail}
        supportEmbed={data.supportEmbed}
        errorDetected={errorDetected}
        stateRejected={recheck === "rejected"}
      >
        <Outlet />
      </AppShell>
    </Document>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<typeof loader>("root");
  const { pathname, search } = useLocation();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message = errorMessage(error, status);
  useEffect(() => {
    // Answers the server chose (404, 403) are not faults; anything else is reported.
    if (!isRouteErrorResponse(error)) {
      void import("./lib/error-reporting").then(({ reportClientError }) => reportClientError(error));
    }
  }, [error]);
  return (
    <Document>
      <ErrorPageGuard>
        <AppShell
          layout="default"
          pathname={pathname}
          search={search}
          session={data?.session ?? null}
          navigation={data?.navigation ?? null}
          flash={null}
          coupon={null}
          footerName={data ? footerName(pathname, data.community) : ""}
          homeLabel={data?.community.homeLabel ?? "Home"}
          supportEmail={data?.supportEmail ?? ""}
          supportEmbed={data?.supportEmbed ?? null}
          errorDetected={!isRouteErrorResponse(error)}
          stateRejected={false}
        >
          <ErrorCard status={status} message={message} />
        </AppShell>
      </ErrorPageGuard>
    </Document>
  );
}
