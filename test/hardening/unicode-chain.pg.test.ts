import { describe, it } from 'node:test';
import { openCatalog } from '../../src/events/index.js';
import { openPostgresEventLog } from '../../src/events/postgres/index.js';
import { dropSchema, freshSchema, storeUrl } from '../postgres/pg-test-db.js';
import { unicodeChainProperty } from './unicode-chain.js';

describe('arbitrary Unicode through PostgreSQL (lone surrogates, NUL, astral planes)', () => {
  it('refused or stored as sent; every chain verifies', () =>
    unicodeChainProperty(async () => {
      const schema = freshSchema('unicode');
      const log = await openPostgresEventLog(storeUrl(schema), openCatalog);
      return {
        log,
        close: async () => {
          await log.close();
          await dropSchema(schema);
        },
      };
    }, 10));
});
