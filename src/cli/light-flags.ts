/**
 * The options of a command line read without commander, for the commands hosts start on every
 * session or prompt (`mcp`, `hook`), which load as little as they can: each option in `names`
 * as `--name value` or `--name=value` (the last one given wins), each of `switches` alone (its
 * value `''`), or undefined for a line that holds anything else (an option without its value, `--help`, an unknown option). Commander
 * then reads that line and explains it. Imports nothing, on purpose.
 */
export const lightFlags = (
  args: readonly string[],
  names: ReadonlySet<string>,
  switches: ReadonlySet<string> = new Set(),
): Map<string, string> | undefined => {
  const values = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    if (switches.has(args[i]!)) {
      values.set(args[i]!, '');
      continue;
    }
    const [name, inline] = args[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    const value = inline ?? args[++i];
    if (!names.has(name) || value === undefined) return undefined;
    values.set(name, value);
  }
  return values;
};
