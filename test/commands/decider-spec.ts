import { strict as assert } from 'node:assert';
import { DeciderSpecification } from '@event-driven-io/emmett';

type Decider<S, C, E> = {
  decide: (command: C, state: S) => E | E[];
  evolve: (state: S, event: E) => S;
  initialState: () => S;
};

/**
 * Emmett's DeciderSpecification (Given / When / Then), with one change: `then` compares the
 * decided events for strict deep equality. Emmett 0.42's `then` matches expected events as a
 * subset (extra fields pass unnoticed) and fails outright on an expected `null` field
 * (`isSubset` recurses into `typeof null === 'object'`); our events are full of nullable fields.
 * `thenNothingHappened` and `thenThrows` are Emmett's own.
 */
export const deciderSpec = <S, C, E>(decider: Decider<S, C, E>) => {
  const emmett = DeciderSpecification.for(decider);
  return (given: E[]) => ({
    when: (command: C) => {
      const spec = emmett(given).when(command);
      return {
        then: (expected: E[]): void => {
          const state = given.reduce(decider.evolve, decider.initialState());
          const decided = decider.decide(command, state);
          assert.deepStrictEqual(Array.isArray(decided) ? decided : [decided], expected);
        },
        thenNothingHappened: spec.thenNothingHappened,
        thenThrows: spec.thenThrows,
      };
    },
  });
};
