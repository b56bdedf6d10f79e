import { randomUUID } from 'node:crypto';
import { html, type Html } from './html.js';
import type { ActionOutcome, PageContext } from './page.js';
import { runTool } from './tool-bridge.js';
import type { Surface } from '../mcp/tool.js';

let fieldIds = 0;
/** A unique id for a label's `for` (many small forms share one page). */
export const fieldId = (name: string): string => `${name}-${++fieldIds}`;

/**
 * A form that posts an action of this page: the CSRF token, the op, and a fresh idempotency key
 * (a double submit or a reload replays the first answer instead of acting twice). A page shown
 * as of the past has no forms.
 */
export const actionForm = (
  ctx: PageContext,
  op: string,
  label: string,
  fields: Html,
  hidden: Record<string, string> = {},
): Html =>
  ctx.at !== undefined
    ? html``
    : html`<form method="post" class="action" aria-label="${label}">
        <input type="hidden" name="csrf" value="${ctx.csrf}" />
        <input type="hidden" name="op" value="${op}" />
        <input type="hidden" name="idempotency_key" value="${randomUUID()}" />
        ${Object.entries(hidden).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}" />`)}
        ${fields}
        <button type="submit">${label}</button>
      </form>`;

export const textField = (name: string, label: string, options: { required?: boolean } = {}) => {
  const id = fieldId(name);
  return html`<label for="${id}">${label}</label
    ><input id="${id}" name="${name}" ${options.required ? html`required` : ''} />`;
};

export const selectField = (name: string, label: string, values: readonly string[]) => {
  const id = fieldId(name);
  return html`<label for="${id}">${label}</label
    ><select id="${id}" name="${name}">
      ${values.map((v) => html`<option>${v}</option>`)}
    </select>`;
};

/** An action that runs one tool of `surface` and comes back to the page, or shows the refusal. */
export const toolAction =
  (
    surface: Surface,
    tool: string,
    build: (ctx: PageContext, form: URLSearchParams) => Record<string, unknown>,
  ) =>
  async (ctx: PageContext, form: URLSearchParams): Promise<ActionOutcome> => {
    const outcome = await runTool(surface, tool, build(ctx, form), ctx);
    if (!outcome.ok) return { refused: { code: outcome.code, message: outcome.message } };
    const back = new URL(ctx.url.pathname, ctx.url);
    back.searchParams.set('done', tool);
    return { redirect: back.pathname + back.search };
  };
