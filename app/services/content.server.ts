import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { Marked } from "marked";

/** Pages whose words the community edits as Markdown files in CONTENT_DIR. */
export const CONTENT_PAGES = ["terms-of-service", "privacy-policy"] as const;
export type ContentPage = (typeof CONTENT_PAGES)[number];

// Raw HTML in the files is dropped: the Markdown is for words, not markup.
const marked = new Marked({ gfm: true, renderer: { html: () => "" } });

const cache = new Map<string, { mtimeMs: number; html: string; title: string }>();

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page as HTML, with {{community}} replaced; re-read when the file changes. */
export async function renderContent(contentDir: string, page: ContentPage, communityName: string) {
  const file = path.join(contentDir, `${page}.md`);
  const { mtimeMs } = await stat(file);
  const key = `${file}\0${communityName}`;
  const cached = cache.get(key);
  if (cached && cached.mtimeMs === mtimeMs) return cached;
  const raw = await readFile(file, "utf8");
  const source = raw.replaceAll("{{community}}", escapeHtml(communityName));
  const title = /^#\s+(.+)$/m.exec(raw)?.[1]?.trim().replaceAll("{{community}}", communityName) ?? page;
  const rendered = { mtimeMs, html: await marked.parse(source), title };
  cache.set(key, rendered);
  return rendered;
}
