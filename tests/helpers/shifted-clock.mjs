/**
 * Loaded into a server process with `--import`: its wall clock runs CLOCK_OFFSET_MS ahead of
 * the machine's, so that a cron line of the job runner (the notary's five-minute poll) comes
 * due while a test is still running. Everything in the process reads the same clock: pg-boss,
 * its cron parser and PGlite, whose now() is Date.now(). Timers and monotonic clocks are left
 * alone, so nothing runs faster; only the time of day moves.
 */
const offset = Number(process.env.CLOCK_OFFSET_MS ?? "0");

if (Number.isFinite(offset) && offset !== 0) {
  const RealDate = Date;
  const realNow = RealDate.now.bind(RealDate);

  function ShiftedDate(...args) {
    if (!new.target) return new RealDate(realNow() + offset).toString();
    return Reflect.construct(RealDate, args.length === 0 ? [realNow() + offset] : args, new.target);
  }
  // Instances stay plain Dates: same prototype, so `instanceof Date` and every method hold.
  ShiftedDate.prototype = RealDate.prototype;
  Object.setPrototypeOf(ShiftedDate, RealDate);
  ShiftedDate.now = () => realNow() + offset;
  ShiftedDate.parse = RealDate.parse;
  ShiftedDate.UTC = RealDate.UTC;
  globalThis.Date = ShiftedDate;
}
