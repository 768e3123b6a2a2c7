/** A page of the community's Markdown content, rendered on the server. */
export function ContentPage({ html }: { html: string }) {
  return <article className="card prose" dangerouslySetInnerHTML={{ __html: html }} />;
}
