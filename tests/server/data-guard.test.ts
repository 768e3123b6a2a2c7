import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../helpers/server";

/**
 * Spec §2.3: "A signed-in user who still needs setup is sent to /setup". A `?_data=` request
 * runs only the named route's loader, not the root's guard, so each protected page's loader
 * must send them there itself. These are the pages the access matrix answers "setup" for;
 * /setup, /logout and the public pages stay open to them.
 */
const PROTECTED: [path: string, routeId: string][] = [
  ["/re-join", "routes/re-join"],
  ["/community-group-pending", "routes/community-group-pending"],
  ["/loading", "routes/loading"],
  ["/profile", "routes/profile.($page)"],
  ["/members", "routes/members._index"],
  ["/members/00000000-0000-0000-0000-000000000000", "routes/members.$userId"],
  ["/admin", "routes/admin"],
  ["/causes", "routes/causes"],
  ["/admin/jobs", "routes/admin_.jobs"],
  ["/admin/settings", "routes/admin_.settings"],
  ["/db", "routes/db.($entity).($view)"],
  ["/db/mail_outbox", "routes/db.($entity).($view)"],
  ["/db/audit_log", "routes/db.($entity).($view)"],
  ["/db/users", "routes/db.($entity).($view)"],
  ["/db/members", "routes/db.($entity).($view)"],
  ["/db/error_reports", "routes/db.($entity).($view)"],
  ["/db/support_requests", "routes/db.($entity).($view)"],
  ["/nol-101", "routes/nol-101"],
  ["/post-office", "routes/post-office"],
  ["/nol", "routes/nol._index"],
  ["/nol/creator", "routes/nol.$form._index"],
  ["/nol/bogus", "routes/nol.$form._index"],
  ["/nol/NotFound", "routes/nol.NotFound"],
  ["/nol/editor", "routes/nol.editor"],
  ["/nol/creator/traffic-stop", "routes/nol.$form.$cause._index"],
  ["/nol/creator/no-such-cause", "routes/nol.$form.$cause._index"],
  ["/nol/creator/traffic-stop/notice", "routes/nol.$form.$cause.$step"],
  ["/nol/creator/traffic-stop/notarize", "routes/nol.($form).($cause).notarize"],
  ["/nol/seemless/187/no-such-hash", "routes/nol.seemless.($formId).$formHash"],
  ["/no-such-page", "routes/$"],
];

describe("the setup guard on data requests", () => {
  let server: RunningServer;
  let cookie = "";

  beforeAll(async () => {
    server = await startServer();
    const response = await fetch(`${server.url}/login`, {
      method: "POST",
      headers: { origin: server.url },
      body: new URLSearchParams({ login: "newbie", password: "memberhall-demo" }),
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    cookie = response.headers
      .getSetCookie()
      .find((c) => c.startsWith("mh_session="))!
      .split(";")[0]!;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each(PROTECTED)("%s?_data=%s sends a member who needs setup to /setup", async (path, routeId) => {
    const response = await fetch(`${server.url}${path}?_data=${encodeURIComponent(routeId)}`, {
      headers: { cookie },
      redirect: "manual",
    });
    await response.arrayBuffer();
    expect({ status: response.status, redirect: response.headers.get("x-remix-redirect") }).toEqual({
      status: 204,
      redirect: "/setup",
    });
  });

  it("still serves the setup page's data", async () => {
    const response = await fetch(`${server.url}/setup/profile?_data=${encodeURIComponent("routes/setup.($code)")}`, {
      headers: { cookie },
      redirect: "manual",
    });
    await response.arrayBuffer();
    expect(response.status).toBe(200);
  });
});
