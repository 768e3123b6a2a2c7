import type { ReactNode } from "react";

export type AlertKind = "success" | "error" | "warn";

/** Errors are announced at once; success and warnings politely. */
export function Alert({ kind, children, title }: { kind: AlertKind; children: ReactNode; title?: string }) {
  return (
    <div className={`alert alert-${kind}`} role={kind === "error" ? "alert" : "status"}>
      {title ? <strong className="alert-title">{title}</strong> : null}
      <div>{children}</div>
    </div>
  );
}
