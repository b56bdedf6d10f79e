/**
 * Secrets never enter the ledger: statements and excerpts are redacted before they are decided
 * on, then capped (statements at 500 characters, source excerpts at 160). Patterns are the
 * well-known shapes of credentials; a false positive costs a word, a miss costs a leak.
 */
export const STATEMENT_MAX = 500;
export const EXCERPT_MAX = 160;

const CREDENTIAL_KEY =
  '(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|client[_-]?secret)';

const PATTERNS: readonly (readonly [string, RegExp])[] = [
  [
    'private_key',
    /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
  ],
  ['aws_access_key', /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g],
  ['github_token', /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})\b/g],
  ['api_key', /\b(?:sk|pk|rk)-(?:[A-Za-z0-9_-]{2,}-)?[A-Za-z0-9_-]{20,}\b/g],
  ['slack_token', /\bxox[abprs]-[A-Za-z0-9-]{10,}\b/g],
  ['jwt', /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b/g],
  ['bearer', /\b(Bearer\s+)[A-Za-z0-9._~+/-]{16,}=*/gi],
  ['url_credentials', /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]+@/gi],
  [
    'assignment',
    // a credential-named key, bare or quoted (JSON's `"api_key":`), then its value: a double-
    // quoted string with escapes, a single-quoted one (either may hold spaces), or a bare run
    // that does not end in the `,;})]` closing what holds it; a value already redacted is left
    new RegExp(
      `((["']?)\\b${CREDENTIAL_KEY}\\2\\s*[:=]\\s*)(?!\\[REDACTED:)` +
        `(?:"(?:[^"\\\\]|\\\\.)*"|'(?:[^'\\\\]|\\\\.)*'|[^\\s"']{3,}[^\\s"',;})\\]])`,
      'gi',
    ),
  ],
];

export type Redacted = { text: string; redactions: number; truncated: boolean };

/** Replaces every secret-shaped span with `[REDACTED:<kind>]`, keeping a prefix like `Bearer `. */
export const redactSecrets = (input: string): { text: string; redactions: number } => {
  let redactions = 0;
  let text = input;
  for (const [kind, pattern] of PATTERNS) {
    text = text.replace(pattern, (...match: unknown[]) => {
      redactions++;
      const kept = kind === 'bearer' || kind === 'url_credentials' || kind === 'assignment';
      const prefix = kept && typeof match[1] === 'string' ? match[1] : '';
      return `${prefix}[REDACTED:${kind}]${kind === 'url_credentials' ? '@' : ''}`;
    });
  }
  return { text, redactions };
};

/** Redacts, trims and caps one text at `max` UTF-16 units, never cutting a surrogate pair. */
export const redactAndCap = (input: string, max: number): Redacted => {
  const { text, redactions } = redactSecrets(input.trim());
  if (text.length <= max) return { text, redactions, truncated: false };
  let kept = '';
  for (const char of text) {
    if (kept.length + char.length > max - 1) break;
    kept += char;
  }
  return { text: `${kept}…`, redactions, truncated: true };
};
