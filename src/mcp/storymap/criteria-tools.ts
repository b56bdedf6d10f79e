import { z } from 'zod';
import { storymap } from '../../app/storymap/index.js';
import { parseCriteriaOrRefuse, sameWording } from '../../commands/storymap/criteria.js';
import type { AnyTool } from '../tool.js';
import { CriterionInputSchema, read, result, StoryRef, write } from './define.js';

const criteriaOf = (s: { criteria: { criterion_id: string; text: string; priority: string }[] }) =>
  s.criteria.map((c) => ({ id: c.criterion_id, text: c.text, priority: c.priority }));
const Criteria = z.array(CriterionInputSchema).max(100);

/** A story's acceptance criteria: add, update, preview and replace. */
export const criteriaTools: AnyTool[] = [
  write({
    name: 'add_criteria',
    title: 'Add acceptance criteria',
    description:
      'Appends criteria to a story (strings or objects); existing criteria are kept. Bad criteria are refused, every bad field named, and nothing is added.',
    args: { story_id: StoryRef, criteria: Criteria },
    output: result({ added: z.number(), total: z.number(), criteria: z.array(z.unknown()) }),
    run: async (args, call) => {
      const o = await storymap(call.app).addCriteria(args, call.principal);
      const added = o.result.added.map((c) => ({
        id: c.criterion_id,
        text: c.text,
        priority: c.priority,
      }));
      return {
        result: { added: added.length, total: o.result.story.criteria.length, criteria: added },
        summary: `${added.length} criteria added to ${o.result.story.key}`,
        position: o.position,
      };
    },
  }),
  write({
    name: 'update_criterion',
    title: 'Edit one criterion',
    overwrites: true,
    description:
      "Changes one criterion's text or priority; every other criterion, and this one's id, stay. Refused with nothing to change, an unknown id (valid ids listed), or VERSION_CONFLICT.",
    args: {
      story_id: StoryRef,
      criterion_id: z.string().min(1),
      text: z.string().max(5000).optional(),
      priority: z.enum(['must', 'should']).optional(),
      expected_version: z.number().int().min(0).optional(),
    },
    output: result({ updated_criterion: z.unknown(), other_criteria_untouched: z.number() }),
    run: async (args, call) => {
      const o = await storymap(call.app).updateCriterion(args, call.principal);
      const all = criteriaOf(o.result);
      return {
        result: {
          updated_criterion: all.find((c) => c.id === args.criterion_id),
          other_criteria_untouched: all.length - 1,
          version: o.result.version,
        },
        summary: `criterion ${args.criterion_id} updated`,
        position: o.position,
      };
    },
  }),
  read({
    name: 'preview_criteria_replacement',
    title: 'Preview criteria replacement',
    description:
      'Shows what replace_criteria would change, writing nothing: would_remove, would_add, removing (with has_results, last_status), adding, and an evidence_warning when reported results would be discarded.',
    args: { story_id: StoryRef, criteria: Criteria },
    output: result({ would_remove: z.number(), would_add: z.number() }),
    run: async (args, call) => {
      const reads = storymap(call.app).reads;
      await reads.map(args.project_id, call.principal);
      const story = await reads.resolve(args.project_id, args.story_id);
      const proposed = parseCriteriaOrRefuse(args.criteria);
      const built = story.status === 'done' || story.status === 'approved';
      const kept = new Set<string>();
      const adding = proposed.filter((p) => {
        const same =
          built &&
          story.acceptance_criteria.find((c) => !kept.has(c.id) && sameWording(c.text, p.text));
        if (same) kept.add(same.id);
        return !same;
      });
      const removing = story.acceptance_criteria
        .filter((c) => !kept.has(c.id))
        .map((c) => ({
          id: c.id,
          text: c.text,
          has_results: c.last_result !== null,
          last_status: c.last_result,
        }));
      const withResults = removing.filter((r) => r.has_results).length;
      return {
        result: {
          would_remove: removing.length,
          would_add: adding.length,
          removing,
          adding,
          kept: [...kept],
          ...(withResults > 0
            ? {
                evidence_warning: `${withResults} criteria with reported results would be discarded`,
              }
            : {}),
        },
        summary: `would remove ${removing.length}, add ${adding.length}`,
      };
    },
  }),
  write({
    name: 'replace_criteria',
    title: 'Replace all criteria',
    overwrites: true,
    description:
      "Replaces all of a story's criteria with the new set. On a done or approved story, a new criterion worded as an old one keeps the old id and result. Refused for bad criteria or VERSION_CONFLICT. dry_run is deprecated: use preview_criteria_replacement.",
    args: {
      story_id: StoryRef,
      criteria: Criteria,
      expected_version: z.number().int().min(0).optional(),
      dry_run: z.boolean().optional(),
    },
    output: result({ replaced: z.number(), criteria: z.array(z.unknown()) }),
    run: async (args, call) => {
      const o = await storymap(call.app).replaceCriteria(args, call.principal);
      return {
        result: {
          replaced: o.result.criteria.length,
          criteria: criteriaOf(o.result),
          version: o.result.version,
        },
        summary: `${o.result.key}: criteria replaced`,
        position: o.position,
      };
    },
  }),
];
