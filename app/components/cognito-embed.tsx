import { useEffect, useState } from "react";
import { useNonce } from "~/components/nonce";
import { apiFetch } from "~/lib/state-client";
import { awaitSubmittedEntry, type PendingBody } from "~/lib/submitted-entry";

export type SeamlessEmbed = { scriptSrc: string; key: string; formId: number; entry: string };

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
  const nonce = useNonce();
  const [state, setState] = useState<"idle" | "saving" | "arrived" | "timed-out">("idle");
  useEffect(() => {
    const onSubmitted = () => {
      setState("saving");
      const query = new URLSearchParams({ cause: pending.cause, username: pending.username });
      awaitSubmittedEntry(pending, {
        testMode,
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
        postSubmitted: async (body) => {
          await apiFetch("/api/entry/cognito-submitted", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(body),
          });
        },
        readEntries: async () => {
          const response = await apiFetch(`/api/entry/nol-member-versions?${query}`);
          const result = (await response.json()) as { list?: { id: string; updated: string }[] };
          const list = result.list ?? [];
          return { rows: list.length, updated: list.find((e) => e.id === pending.entry_id)?.updated ?? null };
        },
      }).then(
        (outcome) => setState(outcome === "timed-out" ? "timed-out" : "arrived"),
        () => setState("timed-out"),
      );
    };
    window.addEventListener(SUBMITTED_EVENT, onSubmitted);
    return () => window.removeEventListener(SUBMITTED_EVENT, onSubmitted);
  }, [pending, testMode]);
  // Prefill once the embed script has loaded, and report the form sent.
  const setup = `document.currentScript.previousElementSibling.addEventListener("load",function(){var C=window.Cognito;if(!C)return;C.prefill&&C.prefill(${embed.entry});C.on&&C.on("afterSubmit",function(){window.dispatchEvent(new Event("${SUBMITTED_EVENT}"))})});`;
  return (
    <div className="cognito-embed">
      <script src={embed.scriptSrc} data-key={embed.key} data-form={String(embed.formId)} nonce={nonce} async />
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: setup }} />
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
