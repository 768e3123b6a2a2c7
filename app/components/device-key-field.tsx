import { useEffect, useRef } from "react";
import { firstInteraction } from "~/lib/first-interaction";
import { deviceKey } from "~/lib/state-client";

/**
 * Fills a hidden field with the device's public key, so API calls can be signed later. The
 * key (and its curve) loads at the page's first interaction; a form sent before it is there
 * waits for it, then goes.
 */
export function DeviceKeyField() {
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const input = field.current;
    const form = input?.form;
    if (!input || !form) return;
    let live = true;
    let loading: Promise<void> | null = null;
    const load = () =>
      (loading ??= deviceKey().then(
        (key) => {
          if (live) input.value = key.publicKey;
        },
        // Without a key the login still works; the API then asks for a new login.
        () => undefined,
      ));
    void firstInteraction().then(load);
    let waited = false;
    const beforeSubmit = (event: Event) => {
      if (input.value || waited) return;
      event.preventDefault();
      event.stopPropagation();
      const { submitter } = event as SubmitEvent;
      void load().then(() => {
        waited = true;
        if (live) form.requestSubmit(submitter);
      });
    };
    form.addEventListener("submit", beforeSubmit);
    return () => {
      live = false;
      form.removeEventListener("submit", beforeSubmit);
    };
  }, []);
  return <input ref={field} type="hidden" name="devicePublicKey" defaultValue="" />;
}
