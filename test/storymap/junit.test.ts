import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { isDomainError } from '../../src/commands/errors.js';
import { caseMatches, ciResultsFor } from '../../src/commands/storymap/ci.js';
import { parseJunit, type JunitCase } from '../../src/commands/storymap/junit.js';
import type { StoryTest } from '../../src/events/storymap/index.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/junit/${name}`, import.meta.url), 'utf8');
const brief = (c: JunitCase) => [c.classname, c.name, c.file, c.status, c.message];

describe('JUnit reports (parseJunit)', () => {
  it('reads vitest: a <testsuites> root, names joined by " > ", the suite named by file', () => {
    const r = parseJunit(fixture('vitest.xml'));
    assert.equal(r.suites, 1);
    assert.equal(r.run_at, '2026-12-01T10:30:00.000Z');
    assert.match(r.report_id, /^[0-9a-f]{32}$/);
    const file = 'src/lib/__tests__/upload.test.ts';
    assert.deepEqual(r.cases.map(brief), [
      [file, 'Upload > when a photo is sent > shows it in the book', null, 'pass', null],
      [file, 'Upload > refuses a 0-byte file', null, 'fail', 'expected 400, got 500'],
      [file, 'Upload > keeps EXIF', null, 'skipped', null],
    ]);
    assert.deepEqual(r.cases[0]!.suites, [file]);
  });

  it('reads Surefire: a lone <testsuite> root, failure, error (text only), skipped, a flaky pass', () => {
    const r = parseJunit(fixture('surefire.xml'));
    assert.equal(r.suites, 1);
    assert.deepEqual(
      r.cases.map((c) => [c.name, c.status, c.message]),
      [
        ['paysWithCard', 'pass', null],
        ['refusesExpiredCard', 'fail', 'expected: <DECLINED> but was: <OK>'],
        ['talksToBank', 'error', 'Connection refused'],
        ['printsInvoice', 'skipped', null],
        ['retriesOnce', 'pass', null],
      ],
    );
    assert.ok(r.cases.every((c) => c.classname === 'com.photobook.OrderTest' && c.file === null));
  });

  it("reads pytest: the case's file attribute; a failure's text when it has no message line", () => {
    const r = parseJunit(fixture('pytest.xml'));
    assert.equal(r.run_at, '2026-12-01T11:00:00.000000');
    assert.deepEqual(r.cases.map(brief), [
      ['tests.test_pages.TestArrange', 'test_reorder', 'tests/test_pages.py', 'pass', null],
      [
        'tests.test_pages.TestArrange',
        'test_layout_saves',
        'tests/test_pages.py',
        'fail',
        'assert False',
      ],
    ]);
  });

  it("walks nested suites: the nearest suite's file, the case's own file first", () => {
    const r = parseJunit(fixture('nested.xml'));
    assert.equal(r.suites, 4);
    assert.deepEqual(
      r.cases.map((c) => [c.name, c.file, c.suites.join(' / '), c.status, c.message]),
      [
        ['sends a link', 'app/photobook.spec.js', 'photobook / Share', 'pass', null],
        [
          'queues the link',
          'app/share/offline.spec.js',
          'photobook / Share / when offline',
          'fail',
          'queue empty',
        ],
        ['MyLib when X does Y', 'src/lib/__tests__/foo.test.ts', 'jest tests', 'pass', null],
      ],
    );
  });

  it('refuses malformed XML and XML that is not JUnit, with where and why', () => {
    assert.throws(
      () => parseJunit(fixture('malformed.xml')),
      (e: unknown) =>
        isDomainError(e) &&
        e.code === 'invalid_argument' &&
        /malformed/.test(e.message) &&
        typeof e.details.line === 'number',
    );
    assert.throws(
      () => parseJunit(fixture('not-junit.xml')),
      (e: unknown) => isDomainError(e) && /root element is <html>/.test(e.message),
    );
    assert.throws(
      () => parseJunit(''),
      (e: unknown) => isDomainError(e),
    );
  });

  it('gives the same report the same id, and another report another', () => {
    const xml = fixture('vitest.xml');
    assert.equal(parseJunit(xml).report_id, parseJunit(xml).report_id);
    assert.notEqual(parseJunit(xml).report_id, parseJunit(xml.replace('10:30', '10:31')).report_id);
  });
});

const test = (file: string | null, full_name: string | null, id = 't1'): StoryTest => ({
  test_id: id,
  title: full_name ?? 'x',
  steps: null,
  expected_result: null,
  test_type: 'functional',
  criterion_ids: ['c1'],
  file,
  full_name,
});

describe('matching CI cases to linked tests (file and full name)', () => {
  const vitest = parseJunit(fixture('vitest.xml')).cases;
  const surefire = parseJunit(fixture('surefire.xml')).cases;
  const pytest = parseJunit(fixture('pytest.xml')).cases;
  const nested = parseJunit(fixture('nested.xml')).cases;

  it('matches the contract example: file and the full title', () => {
    const t = test('src/lib/__tests__/upload.test.ts', 'Upload > refuses a 0-byte file');
    assert.deepEqual(
      vitest.filter((c) => caseMatches(t, c)).map((c) => c.name),
      ['Upload > refuses a 0-byte file'],
    );
    assert.ok(!vitest.some((c) => caseMatches(test('src/other.test.ts', t.full_name), c)));
    assert.ok(
      vitest.some((c) =>
        caseMatches(test('/home/ci/repo/src/lib/__tests__/upload.test.ts', t.full_name), c),
      ),
      'an absolute path ends with the relative one',
    );
    assert.ok(
      !vitest.some((c) => caseMatches(test(t.file, 'refuses a 0-byte file'), c)),
      'a part of the name is not the name',
    );
  });

  it('joins classname and name the ways runners do; a report with no file matches by name', () => {
    assert.ok(
      surefire.some((c) =>
        caseMatches(
          test(
            'src/test/java/com/photobook/OrderTest.java',
            'com.photobook.OrderTest.paysWithCard',
          ),
          c,
        ),
      ),
    );
    assert.ok(
      surefire.some((c) => caseMatches(test(null, 'com.photobook.OrderTest#paysWithCard'), c)),
    );
    assert.ok(
      pytest.some((c) =>
        caseMatches(test('tests/test_pages.py', 'tests.test_pages.TestArrange::test_reorder'), c),
      ),
    );
    assert.ok(
      !pytest.some((c) =>
        caseMatches(test('tests/test_other.py', 'tests.test_pages.TestArrange::test_reorder'), c),
      ),
    );
    assert.ok(
      nested.some((c) =>
        caseMatches(test('src/lib/__tests__/foo.test.ts', 'MyLib when X does Y'), c),
      ),
    );
    assert.ok(
      nested.some((c) => caseMatches(test('app/photobook.spec.js', 'Share sends a link'), c)),
      "the suite's file",
    );
    assert.ok(
      !vitest.some((c) => caseMatches(test('x', null), c)),
      'a test with no full_name matches nothing',
    );
  });

  it('takes the worst of the cases a test matches (a parametrised test)', () => {
    const cases: JunitCase[] = ['pass', 'fail', 'skipped'].map((status) => ({
      name: 'adds[1]',
      classname: 'math',
      file: null,
      suites: [],
      status: status as JunitCase['status'],
      message: status === 'fail' ? 'boom' : null,
    }));
    assert.deepEqual(ciResultsFor([test(null, 'math adds[1]')], cases), [
      { test_id: 't1', status: 'fail', message: 'boom', cases: 3 },
    ]);
    assert.deepEqual(ciResultsFor([test(null, 'other')], cases), []);
  });
});
