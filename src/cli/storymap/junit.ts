import { readFile } from 'node:fs/promises';
import { importJunit } from '../../app/storymap/ci.js';
import { invalidArgument, isDomainError } from '../../commands/errors.js';
import { SYSTEM, type Principal } from '../../commands/principal.js';
import { action, appCommand, out, withApp, type AppFlags } from '../options.js';

type JunitFlags = AppFlags & { project: string; json?: boolean; as?: string };
type Imported = Awaited<ReturnType<typeof importJunit>>;

const n = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;

const readReport = async (path: string) => {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw invalidArgument(`Cannot read the report ${path}: ${(error as Error).message}`, {
      path,
    });
  }
};

const textOf = (r: Imported) => {
  const c = r.cases;
  const lines = [
    `JUnit report ${r.report_id.slice(0, 12)}: ${n(r.suites, 'suite')}, ${n(c.total, 'case')} (${c.pass} pass, ${c.fail} fail, ${c.error} error, ${c.skipped} skipped); ${r.unmatched_cases} match no linked test.`,
  ];
  if (r.stories.length === 0)
    lines.push('No story has a test this report names (save_tests: file and full_name).');
  for (const s of r.stories) {
    const flags = [s.ci_regressed && 'CI REGRESSED', s.tests_predate_code && 'tests predate code']
      .filter(Boolean)
      .join(', ');
    lines.push(
      `${s.key} ${s.title} (${s.status}): ${s.recorded ? `recorded ${n(s.tests.length, 'test')}` : 'already recorded'}${flags ? ` — ${flags}` : ''}`,
      ...s.tests.map(
        (t) =>
          `  ${t.ci.padEnd(7)} ${t.full_name}${t.file ? ` (${t.file})` : ''}${t.message ? `: ${t.message}` : ''}`,
      ),
    );
  }
  return `${lines.join('\n')}\n`;
};

/**
 * `intentlog storymap junit <report.xml> --project <id>`: records CI's results on the tests
 * linked to criteria. A bad report or an unknown project changes nothing; with --json, the
 * answer (or the error, as { ok: false, error: { code, message, details } }) is JSON.
 */
export const storymapJunitCommand = () =>
  appCommand('junit', 'record a JUnit XML report against the tests linked to criteria')
    .argument('<report>', 'the JUnit XML file CI wrote')
    .requiredOption('--project <id>', 'the project id')
    .option('--json', 'print the result (or the error) as JSON')
    .option('--as <actor>', 'act as this registered actor (an editor or owner)')
    .action(
      action(async (path: string, flags: JunitFlags) => {
        const principal: Principal = flags.as ? { kind: 'actor', actor_id: flags.as } : SYSTEM;
        try {
          const xml = await readReport(path);
          const r = await withApp(flags, (app) =>
            importJunit(app, { project_id: flags.project, xml }, principal),
          );
          await out(
            flags.json ? `${JSON.stringify({ ok: true, result: r }, null, 2)}\n` : textOf(r),
          );
        } catch (error) {
          if (!flags.json || !isDomainError(error)) throw error;
          const { code, message, details } = error;
          await out(
            `${JSON.stringify({ ok: false, error: { code, message, details } }, null, 2)}\n`,
          );
          process.exitCode = 1;
        }
      }),
    );
