/**
 * The community's "not legal advice" notice, on every page that makes a document (the
 * template editor, the notarize page); the same text is printed at the foot of each page of
 * the document.
 */
export function DocumentDisclaimer({ text }: { text: string }) {
  return (
    <aside className="alert alert-warn" aria-label="Not legal advice">
      <p className="document-disclaimer">{text}</p>
    </aside>
  );
}
