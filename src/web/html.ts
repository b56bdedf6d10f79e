/** Markup that is already safe: built by `html`, or trusted by the caller through `raw`. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** What may be interpolated: text (escaped), markup, lists of either, or nothing. */
export type Part = Html | string | number | boolean | null | undefined | readonly Part[];

const render = (part: Part): string => {
  if (part instanceof Html) return part.value;
  if (Array.isArray(part)) return (part as readonly Part[]).map(render).join('');
  if (part === null || part === undefined || part === false) return '';
  return escapeHtml(String(part));
};

/** A template whose every interpolation is escaped unless it is `Html` already. */
export const html = (strings: TemplateStringsArray, ...parts: Part[]): Html =>
  new Html(
    strings.reduce((out, s, i) => out + s + (i < parts.length ? render(parts[i]!) : ''), ''),
  );

export const raw = (markup: string): Html => new Html(markup);

/** A URL with query parameters; empty values are left out. */
export const href = (path: string, query: Record<string, string | number | undefined> = {}) => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query))
    if (v !== undefined && v !== '') params.set(k, String(v));
  const q = params.toString();
  return q ? `${path}?${q}` : path;
};

/** A hash shown short, the whole of it in a tooltip and to screen readers. */
export const shortHash = (hash: string): Html =>
  html`<abbr class="hash" title="${hash}" aria-label="hash ${hash}">${hash.slice(0, 10)}</abbr>`;
