import { createHash } from 'node:crypto';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { invalidArgument } from '../errors.js';

/**
 * A JUnit XML report read into test cases (`intentlog storymap junit`). The XML is checked and
 * parsed by fast-xml-parser; this file only knows the JUnit shape, in the variants CI tools write:
 * a `<testsuites>` root or a lone `<testsuite>`, suites nested in suites (Gradle, pytest's
 * xunit2 families, vitest), a case's outcome as a `<failure>`, `<error>` or `<skipped>` child
 * (none: it passed; Surefire's `<rerunFailure>`/`<flakyFailure>` alone: it passed on a rerun),
 * and its file as the case's or the nearest suite's `file` attribute where the tool writes one.
 */
export type CaseStatus = 'pass' | 'fail' | 'error' | 'skipped';

export type JunitCase = {
  name: string;
  classname: string;
  /** the case's `file`, else its nearest suite's; null when the report names none */
  file: string | null;
  /** the names of the suites around it, outermost first */
  suites: string[];
  status: CaseStatus;
  /** the failure's or error's message (its first line when it has no `message`) */
  message: string | null;
};

export type JunitReport = {
  /** sha256 of the report's bytes: the same file imported twice is the same report */
  report_id: string;
  /** the outermost suite's `timestamp`, as written (informational: often without a zone) */
  run_at: string | null;
  suites: number;
  cases: JunitCase[];
};

type Node = Record<string, unknown>;

const ARRAYS = new Set(['testsuites', 'testsuite', 'testcase', 'failure', 'error', 'skipped']);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseAttributeValue: false,
  parseTagValue: false,
  isArray: (name) => ARRAYS.has(name),
});

const text = (node: unknown, attr: string): string | null => {
  if (node === null || typeof node !== 'object') return null;
  const value = (node as Node)[`@_${attr}`];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
};
const children = (node: Node, name: string): Node[] => {
  const list = node[name];
  return Array.isArray(list)
    ? list.map((x) => (x && typeof x === 'object' ? (x as Node) : {}))
    : [];
};

const MESSAGE_MAX = 2000;
const messageOf = (outcome: unknown): string | null => {
  const body =
    typeof outcome === 'string'
      ? outcome
      : outcome && typeof outcome === 'object'
        ? (text(outcome, 'message') ?? String((outcome as Node)['#text'] ?? ''))
        : '';
  const line = body.trim().split('\n')[0]?.trim() ?? '';
  return line === '' ? null : line.slice(0, MESSAGE_MAX);
};

const caseOf = (node: Node, suites: string[], suiteFile: string | null): JunitCase => {
  // raw, not children(): a `<failure>` with text and no attributes parses to a string
  const errors = Array.isArray(node.error) ? (node.error as unknown[]) : [];
  const failures = Array.isArray(node.failure) ? (node.failure as unknown[]) : [];
  const outcome = errors[0] ?? failures[0];
  const status: CaseStatus =
    errors.length > 0
      ? 'error'
      : failures.length > 0
        ? 'fail'
        : children(node, 'skipped').length > 0
          ? 'skipped'
          : 'pass';
  return {
    name: text(node, 'name') ?? '',
    classname: text(node, 'classname') ?? '',
    file: text(node, 'file') ?? suiteFile,
    suites,
    status,
    message: outcome !== undefined ? messageOf(outcome) : null,
  };
};

/** Every case under a suite, depth first, in document order within each suite. */
const walk = (suite: Node, outer: string[], outerFile: string | null, out: JunitReport) => {
  out.suites++;
  const name = text(suite, 'name');
  const suites = name ? [...outer, name] : outer;
  const file = text(suite, 'file') ?? outerFile;
  for (const c of children(suite, 'testcase')) out.cases.push(caseOf(c, suites, file));
  for (const inner of children(suite, 'testsuite')) walk(inner, suites, file, out);
};

/**
 * Parses a JUnit report. Not XML, or XML whose root is not `<testsuites>`/`<testsuite>`, is
 * refused with invalid_argument and where it went wrong.
 */
export const parseJunit = (xml: string): JunitReport => {
  const valid = XMLValidator.validate(xml);
  if (valid !== true)
    throw invalidArgument(`Not a JUnit report: the XML is malformed (${valid.err.msg})`, {
      line: valid.err.line,
      column: valid.err.col,
      reason: valid.err.code,
    });
  const doc = parser.parse(xml) as Node;
  const roots = Object.keys(doc).filter((k) => !k.startsWith('?') && !k.startsWith('#'));
  const report: JunitReport = {
    report_id: createHash('sha256').update(xml).digest('hex').slice(0, 32),
    run_at: null,
    suites: 0,
    cases: [],
  };
  if (roots.length !== 1 || (roots[0] !== 'testsuites' && roots[0] !== 'testsuite'))
    throw invalidArgument(
      `Not a JUnit report: the root element is <${roots.join('>, <') || 'none'}>, expected <testsuites> or <testsuite>`,
      { root: roots },
    );
  const root = children(doc, roots[0])[0] ?? {};
  const top = roots[0] === 'testsuites' ? children(root, 'testsuite') : [root];
  report.run_at = text(top[0], 'timestamp');
  // Some tools put cases straight under <testsuites>; they count as one unnamed suite.
  if (roots[0] === 'testsuites' && children(root, 'testcase').length > 0)
    walk({ testcase: root.testcase }, [], text(root, 'file'), report);
  for (const suite of top) walk(suite, [], null, report);
  return report;
};
