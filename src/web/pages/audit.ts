import type { App } from '../../app/app.js';
import { auditVerify, describeFinding } from '../../app/audit.js';
import { html } from '../html.js';
import { definePage } from '../page.js';

const encoder = new TextEncoder();
const PROGRESS_EVERY_MS = 100;

/**
 * POST /audit: runs `audit verify` and streams its progress as NDJSON lines
 * (`{"done":n,"total":m}` … then `{"report":…,"summary":…}`), which the page draws as a bar.
 */
export const auditStream = (app: App): Response => {
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
          waitFor: (position) => app.waitFor(position),
          onProgress: (done, total) => {
            const now = Date.now();
            if (now - last < PROGRESS_EVERY_MS && done < total) return;
            last = now;
            send({ done, total });
          },
        });
        const summary = report.ok
          ? `verified: ${report.events} events in ${report.projects} projects, ${report.modelKeys} read-model keys`
          : describeFinding(report.finding!);
        send({ report, summary });
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
        Checks every project's hash chain, every event against its schema, and that replaying the
        log reproduces the stored read models.
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
