import type { App } from '../../app/app.js';
import type { HttpRoute } from '../http/handler.js';
import { consentRoute, type ConsentSession } from './consent.js';
import { oauthEndpointsRoute } from './endpoints.js';
import { authorizationServerMetadataRoute } from './metadata.js';
import { resourceMetadataRoute } from './resource-metadata.js';

/**
 * The MCP authorization spec on `serve`: protected-resource metadata always; with a consent
 * session (the web view's sign-in), the authorization server too — metadata, registration,
 * the consent page, the token and revocation endpoints.
 */
export const oauthRoutes = (app: App, consent: ConsentSession | undefined): HttpRoute[] =>
  consent
    ? [
        resourceMetadataRoute(true),
        authorizationServerMetadataRoute(),
        oauthEndpointsRoute(app),
        consentRoute(app, consent),
      ]
    : [resourceMetadataRoute(false)];

export type { ConsentSession };
