import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One row of a surface's table in docs/authorization.md. */
export type Row = {
  tool: string;
  /** who may call it, as the page names them (notes in parentheses left out) */
  who: string[];
  /** the code a non-member gets, when the row names one (`forbidden`, `not_found`) */
  nonMember: string | undefined;
};

const DOC = fileURLToPath(new URL('../../docs/authorization.md', import.meta.url));

const cells = (line: string) =>
  line
    .split('|')
    .slice(1, -1)
    .map((c) => c.trim());

/** The rows of the table under `## <section>`, as the page has them. */
export const tableOf = (section: string): Row[] => {
  const text = readFileSync(DOC, 'utf8');
  const start = text.indexOf(`\n## ${section}\n`);
  if (start < 0) throw new Error(`docs/authorization.md has no section "${section}"`);
  const end = text.indexOf('\n## ', start + 1);
  const body = text.slice(start, end < 0 ? undefined : end);
  return body
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [tool = '', who = '', nonMember = ''] = cells(line);
      return {
        tool: tool.replaceAll('`', ''),
        who: who
          .replace(/\([^)]*\)/g, '')
          .split(',')
          .map((w) => w.trim())
          .filter(Boolean),
        nonMember: /^`(\w+)`$/.exec(nonMember)?.[1],
      };
    });
};
