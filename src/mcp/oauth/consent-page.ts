/** What a valid authorization request asks for, as the consent page shows and re-posts it. */
export type AuthorizeRequest = {
  client_id: string;
  client_name: string | null;
  redirect_uri: string;
  code_challenge: string;
  state: string | undefined;
  resource: string | null;
  scope: string | undefined;
};

const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// no framing (clickjacking), no scripts, no outside resources, forms only to this origin
const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
};

const page = (status: number, title: string, body: string): Response =>
  new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)} · intentlog</title>` +
      '<style>body{font:16px system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}' +
      'button{font:inherit;padding:.4rem 1rem;margin-right:.5rem}code{background:#eee;padding:0 .2rem}</style>' +
      `</head><body><h1>${escape(title)}</h1>${body}</body></html>`,
    { status, headers: HEADERS },
  );

export const messagePage = (status: number, title: string, text: string): Response =>
  page(status, title, `<p>${escape(text).replace(/`([^`]+)`/g, '<code>$1</code>')}</p>`);

const hidden = (name: string, value: string | null | undefined): string =>
  value == null ? '' : `<input type="hidden" name="${name}" value="${escape(value)}">`;

/** The consent form: who asks, where the answer goes, and as whom the client will act. */
export const consentPage = (
  authz: AuthorizeRequest,
  actors: readonly string[],
  csrf: string,
  problem?: string,
): Response => {
  const who = authz.client_name ?? authz.client_id;
  const options = actors
    .map(
      (a) =>
        `<option value="${escape(a)}">${a === 'system' ? 'SYSTEM (every right)' : escape(a)}</option>`,
    )
    .join('');
  return page(
    problem ? 400 : 200,
    'Allow access to intentlog?',
    (problem ? `<p role="alert"><strong>${escape(problem)}</strong></p>` : '') +
      `<p><strong>${escape(who)}</strong> asks to use this ledger through MCP. ` +
      `It will come back to <code>${escape(new URL(authz.redirect_uri).origin)}</code>.</p>` +
      '<form method="post">' +
      hidden('client_id', authz.client_id) +
      hidden('redirect_uri', authz.redirect_uri) +
      hidden('response_type', 'code') +
      hidden('code_challenge', authz.code_challenge) +
      hidden('code_challenge_method', 'S256') +
      hidden('state', authz.state) +
      hidden('resource', authz.resource) +
      hidden('scope', authz.scope) +
      hidden('csrf', csrf) +
      `<p><label>Act as <select name="actor">${options}</select></label></p>` +
      '<p><button name="decision" value="approve">Allow</button>' +
      '<button name="decision" value="deny">Deny</button></p></form>' +
      '<p>Revoke later with <code>intentlog token list</code> and <code>intentlog token revoke</code>.</p>',
  );
};
