import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { EXCERPT_MAX, redactAndCap, STATEMENT_MAX } from '../../src/commands/intent/redact.js';

describe('intent redaction and caps', () => {
  const secrets = [
    ['AKIAABCDEFGHIJKLMNOP', 'aws_access_key'],
    [`ghp_${'a'.repeat(36)}`, 'github_token'],
    [`sk-proj-${'b'.repeat(40)}`, 'api_key'],
    ['password=hunter2hunter2', 'assignment'],
    [`Authorization: Bearer ${'c'.repeat(32)}`, 'bearer'],
    ['postgres://me:s3cr3tpw@db.local/x', 'url_credentials'],
    ['-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----', 'private_key'],
  ] as const;
  for (const [secret, kind] of secrets)
    it(`redacts a ${kind}`, () => {
      const out = redactAndCap(`use ${secret} please`, STATEMENT_MAX);
      assert.ok(out.text.includes(`[REDACTED:${kind}]`), out.text);
      assert.ok(!out.text.includes(secret), out.text);
      assert.equal(out.redactions, 1);
    });

  // intent-loop's redaction cases (redaction.test, service.test) and issue 33's own input
  const quoted = [
    [
      '{"password":"abc\\"TOPSECRETVALUE987","nested":{"api_key":"value with spaces"}}',
      ['TOPSECRETVALUE987', 'value with spaces'],
      '}}',
      2,
    ],
    [
      'password: "correct horse battery staple", keep this suffix',
      ['correct horse', 'battery staple'],
      ', keep this suffix',
      1,
    ],
    [
      '{"password":"supersecretvalue","api_key":"api-secret-value"}',
      ['supersecretvalue', 'api-secret-value'],
      '}',
      2,
    ],
    ["use token='a quoted secret' here", ['a quoted secret'], ' here', 1],
    [`my ghp_${'x'.repeat(24)} token`, ['x'.repeat(24)], ' token', 1],
  ] as const;
  for (const [input, secrets, suffix, count] of quoted)
    it(`redacts the whole quoted or JSON value: ${input.slice(0, 40)}`, () => {
      const out = redactAndCap(input, STATEMENT_MAX);
      for (const secret of secrets) assert.ok(!out.text.includes(secret), out.text);
      assert.ok(out.text.endsWith(suffix), out.text);
      assert.equal(out.redactions, count, out.text);
    });

  it('counts a value already redacted by a more specific rule once', () =>
    assert.equal(redactAndCap(`token=ghp_${'a'.repeat(30)}`, STATEMENT_MAX).redactions, 1));

  it('leaves ordinary prose alone', () =>
    assert.deepEqual(redactAndCap('  keep the API stable  ', 500), {
      text: 'keep the API stable',
      redactions: 0,
      truncated: false,
    }));

  it('caps at the limit without splitting a surrogate pair', () =>
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 800 }),
        fc.constantFrom(STATEMENT_MAX, EXCERPT_MAX),
        (s, max) => {
          const out = redactAndCap(s, max);
          assert.ok(out.text.length <= max);
          assert.ok(!/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(out.text));
          assert.equal(out.truncated, redactAndCap(s, 100_000).text.length > max);
        },
      ),
    ));
});
