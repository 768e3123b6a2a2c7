import { useEffect, useId, useRef, useState, type ReactNode } from "react";

/**
 * An accessible modal on the native <dialog>: showModal() keeps focus inside and makes the
 * page behind inert, Escape closes it, and the heading labels it.
 */
export function Modal({
  title,
  open,
  onClose,
  children,
}: {
  title: string;
  open: boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // Once opened, the content stays mounted (hidden with the closed dialog), so what was typed
  // is still there when it opens again.
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className="modal" aria-labelledby={titleId} onClose={onClose} onCancel={onClose}>
      <div className="modal-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="modal-close" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </div>
      <div className="modal-body">{opened ? children : null}</div>
    </dialog>
  );
}
