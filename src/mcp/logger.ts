import pino, { type Logger } from 'pino';

/**
 * Logs go to stderr, always: on stdio, stdout carries the protocol and nothing else.
 * Level from INTENTLOG_LOG_LEVEL (default `info`).
 */
export const stderrLogger = (name: string): Logger =>
  pino(
    { name, level: process.env.INTENTLOG_LOG_LEVEL ?? 'info' },
    pino.destination({ fd: 2, sync: true }),
  );
