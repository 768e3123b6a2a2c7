/** Whether a process of this machine still runs (EPERM: it does, as another user's). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

let serverScript: string | undefined;

/** The built server's own file, which work that must not hold the event loop runs again as a task in a child process. */
export function setServerScript(script: string): void {
  serverScript = script;
}

/** The built server's file; undefined where the app runs without it (a test's services). */
export const builtServerScript = (): string | undefined => serverScript;
