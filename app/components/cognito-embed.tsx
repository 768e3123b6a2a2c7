import { useEffect, useRef, useState } from "react";
import { useNonce } from "~/components/nonce";
import type { SeamlessEmbed } from "~/lib/seamless-embed";
import type { PendingBody } from "~/lib/submitted-entry";

/** What following a sent form needs, loaded when the form is sent: no page needs it to show. */
const followingModules = () => Promise.all([import("~/lib/submitted-entry"), import("~/lib/api-client")]);

/** The parts of Cognito's seamless-embed global this page uses. */
type CognitoGlobal = {
  prefill?: (entry: Record<string, unknown>) => void;
  on?: (event: string, handler: () => void) => void;
};

/** The event our embed script raises when Cognito reports the form sent. */
const SUBMITTED_EVENT = "memberhall:form-submitted";

/** A hosted form in Cognito's seamless embed: prefilled, and followed until its entry arrives (spec §4 "Submission"). */
export function CognitoEmbed({
  embed,
  pending,
  testMode,
}: {
  embed: SeamlessEmbed;
  pending: PendingBody;
  testMode: boolean;
}) {
  const [state, setState] = useState<"idle" | "saving" | "arrived" | "timed-out">("idle");
  useEffect(() => {
    const onSubmitted = () => {
      setState("saving");
      followingModules()
        .then(([{ awaitSubmittedEntry }, { api }]) =>
          awaitSubmittedEntry(pending, {
            testMode,
            sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
            postSubmitted: async (body) => {
              await api("/api/entry/cognito-submitted", { method: "POST", body });
            },
            readEntries: async () => {
              const { data } = await api<{ list?: { id: string; updated: string }[] }>(
                "/api/entry/nol-member-versions",
                {
                  query: { cause: pending.cause, username: pending.username },
                },
              );
              const list = data?.list ?? [];
              return { rows: list.length, updated: list.find((e) => e.id === pending.entry_id)?.updated ?? null };
            },
          }),
        )
        .then(
          (outcome) => setState(outcome === "timed-out" ? "timed-out" : "arrived"),
          () => setState("timed-out"),
        );
    };
    window.addEventListener(SUBMITTED_EVENT, onSubmitted);
    return () => window.removeEventListener(SUBMITTED_EVENT, onSubmitted);
  }, [pending, testMode]);
  const host = useSeamlessScript(embed);
  return (
    <div className="cognito-embed" ref={host}>
      <p role="status" aria-live="polite">
        {state === "saving" ? "Saving your entry…" : null}
        {state === "arrived" ? "Your entry is saved." : null}
        {state === "timed-out"
          ? "Your entry is taking longer than usual; it will appear in your list when it arrives."
          : null}
      </p>
    </div>
  );
}

/**
 * Adds a form's seamless-embed script to the returned element, prefills the form and raises
 * SUBMITTED_EVENT when Cognito reports it sent. The script is added from an effect: React does
 * not run <script> elements it renders in the browser, and these pages are often reached by a
 * client-side navigation. The CSP's 'strict-dynamic' trusts a script our own code adds.
 */
function useSeamlessScript(embed: SeamlessEmbed) {
  const nonce = useNonce();
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const container = host.current;
    if (!container) return;
    const script = document.createElement("script");
    script.src = embed.scriptSrc;
    script.async = true;
    script.dataset.key = embed.key;
    script.dataset.form = String(embed.formId);
    if (nonce) script.nonce = nonce;
    script.addEventListener("load", () => {
      const cognito = (window as { Cognito?: CognitoGlobal }).Cognito;
      cognito?.prefill?.(JSON.parse(embed.entry) as Record<string, unknown>);
      cognito?.on?.("afterSubmit", () => window.dispatchEvent(new Event(SUBMITTED_EVENT)));
    });
    container.appendChild(script);
    return () => script.remove();
  }, [embed.scriptSrc, embed.key, embed.formId, embed.entry, nonce]);
  return host;
}

/** A hosted form that makes an entry of its own (the support form): it says when it is sent. */
export function HostedFormEmbed({ embed, sentMessage }: { embed: SeamlessEmbed; sentMessage: string }) {
  const [sent, setSent] = useState(false);
  useEffect(() => {
    const onSubmitted = () => setSent(true);
    window.addEventListener(SUBMITTED_EVENT, onSubmitted);
    return () => window.removeEventListener(SUBMITTED_EVENT, onSubmitted);
  }, []);
  const host = useSeamlessScript(embed);
  return (
    <div className="cognito-embed" ref={host}>
      <p role="status" aria-live="polite">
        {sent ? sentMessage : null}
      </p>
    </div>
  );
}
