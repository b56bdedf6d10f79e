import { storymap } from '../../app/storymap/index.js';
import { invalidArgument, isDomainError, type ErrorCode } from '../../commands/errors.js';
import { storyMapSurface } from '../../mcp/storymap/index.js';
import { actionForm } from '../forms.js';
import { html, type Html } from '../html.js';
import type { ActionOutcome, PageContext } from '../page.js';

export type Run = (ctx: PageContext, form: URLSearchParams) => Promise<unknown>;

/**
 * A founder action of the story map: the same service call (and so the same decider) as
 * `intentlog founder`, as the signed-in principal. A refusal comes back as the surface's error
 * code and message, shown on the page; success returns to the page with what was done.
 */
export const founderAction =
  (name: string, run: Run) =>
  async (ctx: PageContext, form: URLSearchParams): Promise<ActionOutcome> => {
    try {
      await run(ctx, form);
    } catch (error) {
      if (!isDomainError(error)) throw error;
      const code = storyMapSurface.errorCodes?.[error.code as ErrorCode] ?? error.code;
      return { refused: { code, message: error.message } };
    }
    const back = new URL(ctx.url.pathname, ctx.url);
    const subject = form.get('story_id') ?? form.get('run') ?? '';
    back.searchParams.set('done', `${name} ${subject}`.trim());
    return { redirect: back.pathname + back.search };
  };

const mark =
  (to: 'ready_for_dev' | 'approved'): Run =>
  (ctx, form) =>
    storymap(ctx.app).founderMark(
      { project_id: ctx.params.project!, story_id: form.get('story_id') ?? '', to },
      ctx.principal,
    );

/** The founder's forms, by op: every page that shows them posts to itself. */
export const founderActions = {
  ready: founderAction('marked ready', mark('ready_for_dev')),
  approve: founderAction('approved', mark('approved')),
  sequence: founderAction('sequenced', (ctx, form) => {
    const raw = (form.get('build_sequence') ?? '').trim();
    const n = raw === '' || raw === 'none' ? null : Number(raw);
    if (n !== null && (!Number.isSafeInteger(n) || n < 1))
      throw invalidArgument('a build sequence is a whole number from 1, or none', {
        build_sequence: raw,
      });
    return storymap(ctx.app).setBuildSequence(
      { project_id: ctx.params.project!, story_id: form.get('story_id') ?? '', build_sequence: n },
      ctx.principal,
    );
  }),
};

export const readyForm = (ctx: PageContext, key: string): Html =>
  actionForm(ctx, 'ready', `Mark ${key} ready for dev`, html``, { story_id: key });

export const approveForm = (ctx: PageContext, key: string): Html =>
  actionForm(ctx, 'approve', `Approve ${key}`, html``, { story_id: key });

export const sequenceForm = (ctx: PageContext, key: string, id: string): Html =>
  actionForm(
    ctx,
    'sequence',
    `Sequence ${key}`,
    html`<label for="seq-${id}">Build sequence of ${key}</label
      ><input id="seq-${id}" name="build_sequence" type="number" min="1" required />`,
    { story_id: key },
  );

/** The founder forms a story's status allows (the decider still decides). */
export const formsFor = (
  ctx: PageContext,
  s: { key: string; status: string; cancelled: boolean },
) =>
  s.cancelled
    ? html``
    : s.status === 'todo'
      ? readyForm(ctx, s.key)
      : s.status === 'done'
        ? approveForm(ctx, s.key)
        : html``;
