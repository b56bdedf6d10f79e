import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  applyChanges,
  contractDiff,
  contractHash,
  contractIssues,
} from '../../src/commands/missions/contract.js';
import { contract } from './fixture.js';

describe('mission contracts', () => {
  it('accepts a finite contract', () => assert.deepEqual(contractIssues(contract), []));

  it('lists every issue of a vague contract', () => {
    const issues = contractIssues({
      ...contract,
      objective: 'misc',
      artifact: ' ',
      done_criteria: [],
    });
    assert.deepEqual(
      issues.map((i) => i.code),
      ['objective_vague', 'artifact_missing', 'no_done_criteria'],
    );
  });

  it('a short objective is fine: the criteria make a mission finite (HAI-MCP)', () => {
    for (const objective of ['Prove completion', 'drift wrapper', 'changed'])
      assert.deepEqual(contractIssues({ ...contract, objective }), [], objective);
    assert.deepEqual(
      contractIssues({ ...contract, objective: ' ' }).map((i) => i.message),
      ['objective is required'],
    );
    for (const objective of ['everything', 'an HAI arbeiten', 'Miscellaneous'])
      assert.deepEqual(
        contractIssues({ ...contract, objective }).map((i) => i.message),
        ['objective is too broad to be verifiable'],
        objective,
      );
  });

  it('flags placeholder objectives and duplicate criteria', () => {
    const issues = contractIssues({
      ...contract,
      objective: 'do the export stuff for everyone',
      done_criteria: [contract.done_criteria[0]!, contract.done_criteria[0]!],
    });
    assert.deepEqual(
      issues.map((i) => i.code),
      ['objective_vague', 'duplicate_criterion_id'],
    );
  });

  it('hashes the canonical body: key order does not matter, content does', () => {
    const { owner, ...rest } = contract;
    const reordered = { owner, ...rest };
    assert.equal(contractHash(reordered), contractHash(contract));
    assert.match(contractHash(contract), /^sha256:[0-9a-f]{64}$/);
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (owner) => {
        fc.pre(owner !== contract.owner);
        return contractHash({ ...contract, owner }) !== contractHash(contract);
      }),
    );
  });

  it('diffs field by field, constraints one by one', () => {
    const after = applyChanges(contract, {
      artifact: 'src/export/csv-v2.ts',
      constraints: { max_parallel_sessions: 3 },
    });
    assert.deepEqual(contractDiff(contract, after), [
      { field: 'artifact', before: 'src/export/csv.ts', after: 'src/export/csv-v2.ts' },
      { field: 'constraints.max_parallel_sessions', before: 2, after: 3 },
    ]);
    assert.deepEqual(after.constraints.allowed_paths, contract.constraints.allowed_paths);
  });
});
