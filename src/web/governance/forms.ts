import { GateOutcome, Verdict } from '../../events/governance/index.js';
import { governanceSurface } from '../../mcp/governance/index.js';
import type { ReviewView, WorkPackageView } from '../../projections/governance/work-packages.js';
import { actionForm, selectField, textField, toolAction } from '../forms.js';
import { html, type Html } from '../html.js';
import type { PageContext } from '../page.js';
import { formArgs } from '../tool-bridge.js';

/**
 * The governance forms: each runs the MCP tool of the same name as the signed-in principal,
 * so the page is refused exactly what an agent would be (a REVIEWER cannot close a gate).
 */
const onPackage = (tool: string, fields: readonly string[]) =>
  toolAction(governanceSurface, tool, (ctx, form) =>
    formArgs(form, ['work_package_id', ...fields], { project_id: ctx.params.project }),
  );

export const governanceActions = {
  issue: toolAction(governanceSurface, 'issue_work_package', (ctx, form) => {
    const criteria = (form.get('acceptance_criteria') ?? '')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    return formArgs(form, ['work_package_id', 'title', 'description'], {
      project_id: ctx.params.project,
      ...(criteria.length > 0 ? { acceptance_criteria: criteria } : {}),
    });
  }),
  claim: onPackage('claim_work_package', []),
  submit_result: onPackage('submit_result', ['summary']),
  request_review: onPackage('request_review', ['reviewer_id']),
  close_gate: onPackage('close_gate', ['outcome', 'reason']),
  submit_review: toolAction(governanceSurface, 'submit_review', (ctx, form) =>
    formArgs(form, ['review_id', 'verdict', 'notes'], { project_id: ctx.params.project }),
  ),
  resolve_escalation: toolAction(governanceSurface, 'resolve_escalation', (ctx, form) =>
    formArgs(form, ['escalation_id', 'resolution'], { project_id: ctx.params.project }),
  ),
};

export const issueForm = (ctx: PageContext): Html =>
  actionForm(
    ctx,
    'issue',
    'Issue work package',
    html`${textField('work_package_id', 'Id', { required: true })}
      ${textField('title', 'Title', { required: true })} ${textField('description', 'Description')}
      <label for="criteria">Acceptance criteria, one a line</label>
      <textarea id="criteria" name="acceptance_criteria" rows="2"></textarea>`,
  );

const reviewForms = (ctx: PageContext, reviews: readonly ReviewView[]) =>
  reviews
    .filter((r) => r.status === 'PENDING')
    .map((r) =>
      actionForm(
        ctx,
        'submit_review',
        `Submit review ${r.review_id.slice(-6)}`,
        html`${selectField('verdict', `Verdict (${r.reviewer_id})`, Verdict.options)}
        ${textField('notes', 'Notes')}`,
        { review_id: r.review_id },
      ),
    );

/** The forms a package's state allows; the command still decides who may use them. */
export const packageForms = (
  ctx: PageContext,
  wp: Pick<WorkPackageView, 'work_package_id' | 'status' | 'reviews'>,
  members: readonly string[],
): Html => {
  const hidden = { work_package_id: wp.work_package_id };
  const id = wp.work_package_id;
  switch (wp.status) {
    case 'OPEN':
      return actionForm(ctx, 'claim', `Claim ${id}`, html``, hidden);
    case 'CLAIMED':
      return actionForm(
        ctx,
        'submit_result',
        `Submit result for ${id}`,
        textField('summary', 'Summary', { required: true }),
        hidden,
      );
    case 'SUBMITTED':
      return html`${actionForm(ctx, 'request_review', `Request review of ${id}`, selectField('reviewer_id', 'Reviewer', members), hidden)}
      ${reviewForms(ctx, wp.reviews)}
      ${actionForm(
        ctx,
        'close_gate',
        `Close gate of ${id}`,
        html`${selectField('outcome', 'Outcome', GateOutcome.options)}${textField('reason', 'Reason')}`,
        hidden,
      )}`;
    default:
      return html``;
  }
};
