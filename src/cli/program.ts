import { Command } from 'commander';

/** The `intentlog` root command holding the commands a line needs. */
export const program = (commands: readonly (() => Command)[], version: string): Command => {
  const root = new Command('intentlog')
    .description('a local-first, event-sourced ledger of intent and work for coding agents')
    .version(version);
  for (const command of commands) root.addCommand(command());
  return root;
};
