import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { describe, expect, it } from "vitest";
import type { SignerPageData } from "~/services/notary/signer-page.server";
import { SignerPageView } from "./signer-page";

/** Server-renders a view inside a data router, as Remix renders the page without JavaScript. */
async function render(element: ReactElement): Promise<string> {
  const handler = createStaticHandler([{ path: "/notary/sandbox/:id", element }]);
  const context = await handler.query(new Request("http://localhost/notary/sandbox/ot_sb_x"));
  if (context instanceof Response) throw new Error("unexpected redirect");
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(<StaticRouterProvider router={router} context={context} hydrate={false} />).replaceAll(
    "<!-- -->",
    "",
  );
}

const open = (overrides: Partial<Extract<SignerPageData, { kind: "open" }>> = {}): SignerPageData => ({
  kind: "open",
  transactionId: "ot_sb_x",
  documentName: "notice-round-1.pdf",
  signerName: "Ada Lovelace",
  step: "meet",
  detailedStatus: "received",
  documentUrl: "/notary/sandbox/ot_sb_x/document",
  community: "Sovereign Community",
  returnTo: "/nol/creator/traffic-stop/notarize",
  returnParam: "/nol/creator/traffic-stop/notarize",
  ...overrides,
});

describe("the sandbox signer page", () => {
  it("shows the document in a frame and a link to it, and the meeting as a plain form post", async () => {
    const html = await render(<SignerPageView data={open()} error={null} />);
    expect(html).toContain('<iframe class="notary-document" src="/notary/sandbox/ot_sb_x/document"');
    expect(html).toMatch(/<a href="\/notary\/sandbox\/ot_sb_x\/document"[^>]*>Open the document \(PDF\)<\/a>/);
    expect(html).toMatch(/<form method="post"[^>]*>/);
    expect(html).toContain('<input type="hidden" name="return" value="/nol/creator/traffic-stop/notarize"/>');
    expect(html).toMatch(/<button type="submit"[^>]*name="intent" value="meet"[^>]*>Meet the notary<\/button>/);
    expect(html).not.toContain('value="sign"');
    expect(html).toContain("Sandbox notary — not a legal notarization");
  });

  it("offers the signature after the meeting", async () => {
    const html = await render(<SignerPageView data={open({ step: "sign" })} error="Something went wrong" />);
    expect(html).toMatch(/<button type="submit"[^>]*name="intent" value="sign"[^>]*>Sign<\/button>/);
    expect(html).toContain("You met the sandbox notary.");
    expect(html).toContain('role="alert"');
  });

  it("ends with 'Signed: you can close this page and return to {community}' and a link back", async () => {
    const html = await render(<SignerPageView data={open({ step: "done" })} error={null} />);
    expect(html).toContain("Signed: you can close this page and return to Sovereign Community");
    expect(html).toMatch(/<a class="button button-primary"[^>]*href="\/nol\/creator\/traffic-stop\/notarize"[^>]*>/);
    expect(html).toContain("Open the notarized document (PDF)");
    // No step is left to take: only the sandbox's own controls post anything.
    expect(html).not.toContain('value="meet"');
    expect(html).not.toContain('value="sign"');
    expect(html.match(/<form/g)).toHaveLength(1);
    expect(html).toMatch(/<summary>Sandbox notary controls<\/summary>.*value="remove"/);
  });

  it("says a removed document was removed", async () => {
    const data: SignerPageData = {
      kind: "removed",
      message: "This document was removed at Notarize Online",
      community: "Sovereign Community",
      returnTo: "/",
    };
    const html = await render(<SignerPageView data={data} error={null} />);
    expect(html).toContain("This document was removed at Notarize Online");
    expect(html).not.toContain("<iframe");
  });
});
