import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  levelEventLog,
  openCatalog,
  openClassicLevel,
  openMemoryLevel,
} from '../../src/events/index.js';
import { unicodeChainProperty } from './unicode-chain.js';

describe('arbitrary Unicode through the stores (lone surrogates, NUL, astral planes)', () => {
  it('memory-level: refused or stored as sent; every chain verifies', () =>
    unicodeChainProperty(async () => {
      const log = await levelEventLog(await openMemoryLevel(), openCatalog);
      return { log, close: () => log.close() };
    }, 60));

  it('classic-level: refused or stored as sent; every chain verifies', () =>
    unicodeChainProperty(async () => {
      const dir = await mkdtemp(join(tmpdir(), 'intentlog-unicode-'));
      const log = await levelEventLog(await openClassicLevel(join(dir, 'log')), openCatalog);
      return {
        log,
        close: async () => {
          await log.close();
          await rm(dir, { recursive: true, force: true });
        },
      };
    }));
});
