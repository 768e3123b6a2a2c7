import { runTask } from "./run-task.mjs";

/**
 * `npm run mfa:reset -- USERNAME`: removes every second factor of a member who lost them all,
 * the last admin among them (decision 045): their passkeys, authenticator app, recovery codes
 * and remembered devices go, their sessions end, and they are e-mailed. Run it with the
 * server's own settings (its environment file); the server may be running.
 */
runTask("mfa-reset");
