import { feedbackPoint, storymapBuild } from '../../app/storymap/build.js';
import type { Blocker, Handoff } from '../../events/storymap/build-record.js';
import { actionForm, fieldId } from '../forms.js';
import { html, type Html } from '../html.js';
import type { PageContext } from '../page.js';
import { founderAction } from './actions.js';

/**
 * The founder's side of the building loop on the web: answer a hand-off, clear a blocker,
 * approve a plan or send it back with feedback points. The same service calls (and deciders)
 * as `intentlog founder handoff|blocker|plan`.
 */
const on = (ctx: PageContext, form: URLSearchParams) => ({
  project_id: ctx.params.project!,
  story_id: form.get('story_id') ?? '',
});

/** A field's text, or nothing when it is left empty (the command's optional field). */
const optional = (form: URLSearchParams, name: string) => {
  const value = (form.get(name) ?? '').trim();
  return value === '' ? undefined : value;
};

export const buildActions = {
  handoff: founderAction('hand-off done', (ctx, form) => {
    const note = optional(form, 'note');
    return storymapBuild(ctx.app).clearHandoff(
      { ...on(ctx, form), handoff_id: form.get('handoff_id') ?? '', ...(note ? { note } : {}) },
      ctx.principal,
    );
  }),
  blocker: founderAction('blocker cleared', (ctx, form) => {
    const decision = optional(form, 'decision');
    return storymapBuild(ctx.app).clearBlocker(
      {
        ...on(ctx, form),
        blocker_id: form.get('blocker_id') ?? '',
        ...(decision ? { decision } : {}),
      },
      ctx.principal,
    );
  }),
  plan_approve: founderAction('plan approved', (ctx, form) =>
    storymapBuild(ctx.app).reviewPlan({ ...on(ctx, form), verdict: 'approved' }, ctx.principal),
  ),
  plan_changes: founderAction('changes requested', (ctx, form) =>
    storymapBuild(ctx.app).reviewPlan(
      {
        ...on(ctx, form),
        verdict: 'changes_requested',
        points: (form.get('points') ?? '')
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map(feedbackPoint),
      },
      ctx.principal,
    ),
  ),
};

const textArea = (name: string, label: string, required = false) => {
  const id = fieldId(name);
  return html`<label for="${id}">${label}</label
    ><textarea id="${id}" name="${name}" rows="2" ${required ? html`required` : ''}></textarea>`;
};

export const handoffForm = (ctx: PageContext, key: string, h: Handoff): Html =>
  actionForm(
    ctx,
    'handoff',
    `Mark the hand-off of ${key} done`,
    textArea('note', `What you did, for the agent (${h.action})`),
    { story_id: key, handoff_id: h.handoff_id },
  );

export const blockerForm = (ctx: PageContext, key: string, b: Blocker): Html =>
  actionForm(
    ctx,
    'blocker',
    `Clear the blocker of ${key}`,
    textArea('decision', `Your decision (${b.decision_needed})`),
    { story_id: key, blocker_id: b.blocker_id },
  );

/** Approve the plan, or request changes: one feedback point a line, `s2: …` targets step s2. */
export const planForms = (ctx: PageContext, key: string): Html =>
  html`${actionForm(ctx, 'plan_approve', `Approve the plan of ${key}`, html``, { story_id: key })}
  ${actionForm(
    ctx,
    'plan_changes',
    `Request changes to the plan of ${key}`,
    textArea('points', 'Feedback points, one a line ("s2: …" is about step s2)', true),
    { story_id: key },
  )}`;
