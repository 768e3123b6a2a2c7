/**
 * The page's first sign of a person: a key, a pointer, a touch or typed input (a focus a
 * script gives does not count). What only a submit or a check needs loads then, not with the
 * page: the device key's curve, the forms' schemas.
 */
const EVENTS = ["pointerdown", "keydown", "touchstart", "input"] as const;

let first: Promise<void> | null = null;

export function firstInteraction(): Promise<void> {
  first ??= new Promise((resolve) => {
    const heard = () => {
      for (const name of EVENTS) window.removeEventListener(name, heard, true);
      resolve();
    };
    for (const name of EVENTS) window.addEventListener(name, heard, { capture: true, passive: true });
  });
  return first;
}
