import { writeFile } from 'node:fs/promises';

/** A JUnit report as vitest writes it: one suite per file, the whole title in `name`. */
export type Case = { file: string; name: string; status: 'pass' | 'fail' | 'error' | 'skipped' };

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const outcome = (c: Case) =>
  c.status === 'fail'
    ? `<failure message="${esc(`${c.name} failed`)}">AssertionError</failure>`
    : c.status === 'error'
      ? '<error message="crashed"/>'
      : c.status === 'skipped'
        ? '<skipped/>'
        : '';

export const junitXml = (cases: readonly Case[], stamp = '2026-12-01T12:00:00Z') => {
  const files = [...new Set(cases.map((c) => c.file))];
  const suites = files.map(
    (f) =>
      `  <testsuite name="${esc(f)}" timestamp="${stamp}">\n${cases
        .filter((c) => c.file === f)
        .map(
          (c) =>
            `    <testcase classname="${esc(f)}" name="${esc(c.name)}">${outcome(c)}</testcase>`,
        )
        .join('\n')}\n  </testsuite>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="vitest tests">\n${suites.join('\n')}\n</testsuites>\n`;
};

export const writeJunit = async (path: string, cases: readonly Case[], stamp?: string) => {
  await writeFile(path, junitXml(cases, stamp));
  return path;
};
