/**
 * Captures a real request and response of every story-map tool from a running server (HTTP,
 * /mcp/storymap) for docs/storymap.md: `npx tsx test/storymap/capture-docs.ts --write`.
 */
import { storymap } from '../../src/app/storymap/index.js';
import { withApp } from '../mcp/harness.js';
import { captured, fiona, publish, withStorymapHttp } from './capture.js';
import { VISION } from './session.js';

const shown = captured(1800, '###');

await withApp((app) =>
  withStorymapHttp(app, async (client) => {
    const out: string[] = [];
    /** `withText`: the text block too, for the tools that give their own (ToolSuccess.text). */
    const call = async (name: string, args: Record<string, unknown> = {}, withText = false) => {
      const answer = await client.callTool({ name, arguments: args });
      const text = (answer.content as { type: string; text?: string }[])[0]?.text ?? '';
      out.push(
        shown(name, args, answer.structuredContent) +
          (withText
            ? `
Text block (tab-separated):

\`\`\`text
${text}
\`\`\`
`
            : ''),
      );
      return (answer.structuredContent as { result: Record<string, unknown> }).result;
    };
    await call('list_projects');
    const { project_id } = (await call('create_project', {
      name: 'Photo Book',
      idea: 'Print photo books from a phone',
    })) as { project_id: string };
    const p = { project_id };
    await call('create_stories', { ...p, stories: [{ title: 'Upload photos' }] });
    await call('set_vision', { ...p, answers: { users: VISION.users, problem: VISION.problem } });
    await call('set_constitution', {
      ...p,
      answers: { switch: VISION.switch, first: VISION.first, proof: VISION.proof },
    });
    await call('get_vision', p);
    await call('get_constitution', p);
    const made = (await call('create_stories', {
      ...p,
      stories: [
        {
          title: 'Upload photos',
          activity: 'Collect',
          priority: 'must',
          acceptance_criteria: [
            {
              text: 'Given a photo, when I upload it, then it shows in the book',
              priority: 'must',
            },
          ],
        },
        {
          title: 'Arrange pages',
          activity: 'Design',
          acceptance_criteria: ['Pages can be reordered'],
        },
        {
          title: 'Order the book',
          activity: 'Buy',
          release_order: 2,
          acceptance_criteria: [{ text: 'Payment succeeds', priority: 'must' }],
        },
        { title: 'upload photos' },
      ],
    })) as { stories: { id: string }[] };
    const [a, b, c] = made.stories.map((s) => s.id);
    await call('update_stories', {
      ...p,
      stories: [
        { id: b, expected_version: 2, dependencies: [a], build_sequence: 1 },
        { id: c, dependencies: [b], build_sequence: 2 },
        { id: a, build_sequence: 3 },
      ],
    });
    await call('update_stories', { ...p, stories: [{ id: a, dependencies: [c] }] });
    await call('update_stories', {
      ...p,
      stories: [{ id: a, expected_version: 1, status: 'in_progress' }],
    });
    await call('list_stories', { ...p, fields: ['depends_on', 'build_sequence'] });
    await call('get_story', { ...p, story_id: 'PB-2' });
    await call('get_build_order', p, true);
    const crit = (await call('add_criteria', {
      ...p,
      story_id: 'PB-2',
      criteria: [{ text: 'Layout saves', priority: 'must' }, { priority: 'urgent' }],
    })) as unknown;
    void crit;
    const added = (await call('add_criteria', {
      ...p,
      story_id: 'PB-2',
      criteria: [{ text: 'Layout saves', priority: 'must' }],
    })) as { criteria: { id: string }[] };
    await call('update_criterion', {
      ...p,
      story_id: 'PB-2',
      criterion_id: added.criteria[0]!.id,
      text: 'The layout saves on every change',
    });
    await call('preview_criteria_replacement', {
      ...p,
      story_id: 'PB-2',
      criteria: ['Pages can be reordered', 'Pages can be removed'],
    });
    await call('replace_criteria', {
      ...p,
      story_id: 'PB-2',
      criteria: ['Pages can be reordered', { text: 'Pages can be removed', priority: 'must' }],
    });
    await call('cancel_story', { ...p, story_id: 'PB-3', reason: 'payments later' });
    await call('uncancel_story', { ...p, story_id: 'PB-3' });
    await call('add_note', { ...p, story_id: 'PB-1', note: 'Uses the phone picker.' });
    const d = (await call('log_decision', {
      ...p,
      title: 'Store photos locally first',
      description: 'Offline first; sync later.',
      category: 'architecture',
      story_id: 'PB-1',
    })) as { decision_id: string };
    await call('amend_decision', {
      ...p,
      decision_id: d.decision_id.slice(0, 8),
      description: 'Offline first; sync when on Wi-Fi.',
    });
    await call('retract_decision', {
      ...p,
      decision_id: d.decision_id,
      reason: 'superseded by cloud storage',
    });
    await call('rename_release', { ...p, release_order: 1, label: 'MVP' });
    await call('rename_release', { ...p, release_order: 5, label: 'Later' });
    await call('find_orphaned_releases', p);
    await call('update_stories', { ...p, stories: [{ id: a, status: 'done' }] });
    await storymap(app).founderMark({ project_id, story_id: 'PB-1', to: 'approved' }, fiona);
    await call('check_release_readiness', p);
    await call('get_founder_todo', p);
    await call('get_session_context', p);
    await call('get_status', p);
    await call('get_context', { ...p, agent_type: 'claude_code' });
    await call('import_prd', {
      ...p,
      prd: '# Photo Book\n## Share\n- Share a book link\n  Given a finished book\n  When I share it\n  Then a friend can view it\n',
    });
    await call('archive_project', p);
    await call('add_note', { ...p, story_id: 'PB-1', note: 'x' });
    await call('restore_project', p);
    await publish('test/storymap/capture-docs.ts', out);
  }),
);
