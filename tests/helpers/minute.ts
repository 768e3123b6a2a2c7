/**
 * The sign-in limits count in fixed minutes of the clock: a burst that needs `seconds` starts
 * in a new minute when the current one has less left, so that it all falls in one window.
 */
export async function withinOneMinute(seconds: number) {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
}
