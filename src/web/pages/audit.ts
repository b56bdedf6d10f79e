import type { App } from '../../app/app.js';
import { auditVerify, describeFinding, type AuditReport } from '../../app/audit.js';
import type { Principal } from '../../commands/principal.js';
import { visibleProjects } from '../event-rows.js';
import { html } from '../html.js';
import { definePage } from '../page.js';

const encoder = new TextEncoder();
const PROGRESS_EVERY_MS = 100;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

const summaryOf = (report: AuditReport, scoped: boolean): string => {
  if (!report.ok) return describeFinding(report.finding!);
  if (scoped)
    return `verified: ${plural(report.events, 'event')} in ${plural(report.projects, 'project')} of yours (the read models, one store for every project, are the local user's audit)`;
  return `verified: ${report.events} events in ${report.projects} projects, ${report.modelKeys} read-model keys`;
};

/**
 * POST /audit: runs `audit verify` and streams its progress as NDJSON lines
 * (`{"done":n,"total":m}` … then `{"report":…,"summary":…}`), which the page draws as a bar.
 * The local user (SYSTEM) audits the whole log; an actor the projects it is a member of, and
 * learns nothing of the others (docs/authorization.md, "Web view").
 */
export const auditStream = async (app: App, principal: Principal): Promise<Response> => {
  const projects = await visibleProjects(app, principal);
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (value: unknown) =>
        controller.enqueue(encoder.encode(`${JSON.stringify(value)}\n`));
      let last = 0;
      try {
        const report = await auditVerify({
          log: app.log,
          catalog: app.catalog,
          projectors: app.projectors,
          contexts: app.audits.map((a) => () => a.run(app)),
          ...(projects ? { projects } : {}),
          waitFor: (position) => app.waitFor(position),
          onProgress: (done, total) => {
            const now = Date.now();
            if (now - last < PROGRESS_EVERY_MS && done < total) return;
            last = now;
            send({ done, total });
          },
        });
        send({ report, summary: summaryOf(report, projects !== undefined) });
      } catch (error) {
        send({ error: error instanceof Error ? error.message : String(error) });
      }
      controller.close();
    },
  });
  return new Response(body, {
    headers: { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store' },
  });
};

/** `audit verify` from the browser: every hash chain, every schema, every read model. */
export const auditPage = definePage({
  path: '/audit',
  nav: 'Audit',
  models: [],
  async render(ctx) {
    const body = html`<p>
        ${
          ctx.principal.kind === 'system'
            ? `Checks every project's hash chain, every event against its schema, and that replaying
              the log reproduces the stored read models.`
            : `Checks the hash chain of each project you are a member of, and each of its events
              against its schema. The read models and other projects are the local user's audit.`
        }
      </p>
      <form id="audit-form" method="post" action="/audit">
        <input type="hidden" name="csrf" value="${ctx.csrf}" />
        <button type="submit">Verify the log</button>
      </form>
      <p>
        <label for="audit-progress">Progress</label>
        <progress id="audit-progress" max="1" value="0">0%</progress>
      </p>
      <p id="audit-result" role="status"></p>`;
    return { title: 'Audit', body };
  },
});
