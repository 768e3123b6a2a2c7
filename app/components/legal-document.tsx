import type { LegalDocument } from "~/content/legal";

export function LegalDocumentView({ document }: { document: LegalDocument }) {
  return (
    <article className="card" aria-labelledby="legal-title">
      <h1 id="legal-title">{document.title}</h1>
      {document.sections.map((section) => (
        <section key={section.heading}>
          <h2>{section.heading}</h2>
          <p>{section.body}</p>
        </section>
      ))}
    </article>
  );
}
