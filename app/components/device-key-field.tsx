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
    // The public key once made ("" when it could not be: the login still works, and the API
    // then asks for a new one); null until then.
    let key: string | null = null;
    let making: Promise<string> | null = null;
    const load = () => {
      making ??= deviceKey().then(
        (made) => made.publicKey,
        () => "",
      );
      return making.then((made) => {
        key = made;
        input.value = made;
      });
    };
    void firstInteraction().then(load);
    const beforeSubmit = (event: Event) => {
      // A form reset (after a refused login) empties the field: the key goes back in.
      if (key !== null) {
        input.value = key;
        return;
      }
      event.preventDefault();
      event.stopPropagation();
      const { submitter } = event as SubmitEvent;
      void load().then(() => {
        if (!live) return;
        try {
          form.requestSubmit(submitter);
        } catch {
          // The button that sent it is gone (the page re-rendered): the form goes without it.
          form.requestSubmit();
        }
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
