/** Waits until the condition holds: a notification reaches the listener a moment after its commit. */
export async function eventually(condition: () => boolean, what: string) {
  const until = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`${what} did not happen within 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
