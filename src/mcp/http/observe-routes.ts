import type { App } from '../../app/app.js';
import { healthOf } from '../../app/health.js';
import type { AppMetrics } from '../../app/metrics.js';
import type { HttpRoute } from './handler.js';

export const HEALTH_PATH = '/healthz';
export const METRICS_PATH = '/metrics';

const pathIs = (request: Request, path: string): boolean =>
  request.method === 'GET' && new URL(request.url).pathname === path;

/**
 * `GET /healthz`: the role, the store, the log's head and each read model's position and lag, as
 * JSON; 200 when every read model folds, 503 when one failed or the writer cannot be asked (a
 * load balancer or a supervisor reads the status, a person the body).
 */
export const healthRoute =
  (app: App, store: string | undefined): HttpRoute =>
  async (request) => {
    if (!pathIs(request, HEALTH_PATH)) return undefined;
    const health = await healthOf(app, store);
    return Response.json(health, {
      status: health.status === 'ok' ? 200 : 503,
      headers: { 'cache-control': 'no-store' },
    });
  };

/** `GET /metrics`: the Prometheus text format (prom-client's registry). */
export const metricsRoute =
  (metrics: AppMetrics): HttpRoute =>
  async (request) => {
    if (!pathIs(request, METRICS_PATH)) return undefined;
    return new Response(await metrics.text(), {
      headers: { 'content-type': metrics.contentType, 'cache-control': 'no-store' },
    });
  };
