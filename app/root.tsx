import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import type { ReactNode } from "react";
import { useNonce } from "./components/nonce";
import { communityFor } from "./domain/community";
import stylesheet from "./styles/app.css";
import { appServices } from "~/services/app.server";

export const links: LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "stylesheet", href: stylesheet },
];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.community.name ?? "Members" },
  { name: "description", content: data?.community.description ?? "" },
];

export async function loader({ context }: LoaderFunctionArgs) {
  const { config } = await appServices(context);
  return json({ community: communityFor(config.community) });
}

function Document({ children, title }: { children: ReactNode; title?: string }) {
  const nonce = useNonce();
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
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { community } = useLoaderData<typeof loader>();
  return (
    <Document>
      <div className="page">
        <main id="main" className="page-main">
          <Outlet />
        </main>
        <footer className="page-footer">
          <span>{community.name}</span>
        </footer>
      </div>
    </Document>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<typeof loader>("root");
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message =
    status === 404
      ? "This page could not be found"
      : isRouteErrorResponse(error)
        ? typeof error.data === "string" && error.data
          ? error.data
          : error.statusText || "Error"
        : "Error";
  return (
    <Document title={`${status} · ${message}`}>
      <div className="page">
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
