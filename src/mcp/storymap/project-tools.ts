import { z } from 'zod';
import { storymap } from '../../app/storymap/index.js';
import { getContext, getSessionContext, getStatus } from '../../app/storymap/context.js';
import { founderTodoAcross } from '../../app/storymap/founder-todo.js';
import { listProjects } from '../../app/storymap/queries.js';
import { visionQuestions, visionState } from '../../app/storymap/read.js';
import { missingSections, parseReport } from '../../commands/storymap/report.js';
import { planVision } from '../../commands/storymap/vision.js';
import type { AnyTool } from '../tool.js';
import { read, result, write, type Call } from './define.js';

const vision = async (call: Call, projectId: string) => {
  const { map } = await storymap(call.app).reads.map(projectId, call.principal);
  const v = visionState(map);
  const summary =
    v.status === 'complete'
      ? {
          summary: visionQuestions(map)
            .map((q) => `${q.heading} ${q.text}`)
            .join(' '),
        }
      : {};
  return { ...v, questions: visionQuestions(map), ...summary };
};

const nextStep = (status: string) =>
  status === 'complete'
    ? 'The vision is complete: add stories with create_stories.'
    : 'Answer the unanswered keys with set_vision.';

const getVisionTool = (name: string): AnyTool =>
  read({
    name,
    title: 'Get vision',
    description: `Reads the five vision questions (users, problem, switch, first, proof) and their answers: status missing, draft or complete, progress, unanswered, questions.${name === 'get_constitution' ? ' An alias of get_vision.' : ''}`,
    args: {},
    output: result({
      status: z.enum(['missing', 'draft', 'complete']),
      progress: z.string(),
      unanswered: z.array(z.string()),
      questions: z.array(z.unknown()),
    }),
    run: async (args, call) => {
      const r = await vision(call, args.project_id);
      return { result: r, summary: `vision ${r.status} (${r.progress})` };
    },
  });

const setVisionTool = (name: string): AnyTool =>
  write({
    name,
    title: 'Set vision answers',
    overwrites: true,
    description:
      'Saves vision answers, in full or in part (keys left out are untouched), and/or derives them from a brownfield report (Markdown; only users can be derived, from a "## Users" section). ' +
      'A report-derived answer that would replace an answered key returns requires_confirmation and writes nothing until you call again with confirm: true.' +
      (name === 'set_constitution' ? ' An alias of set_vision.' : ''),
    args: {
      answers: z
        .strictObject({
          users: z.string(),
          problem: z.string(),
          switch: z.string(),
          first: z.string(),
          proof: z.string(),
        })
        .partial()
        .optional(),
      report: z.string().max(200_000).optional(),
      confirm: z.boolean().optional(),
    },
    output: result({
      status: z.string(),
      progress: z.string(),
      unanswered: z.array(z.string()),
      next_step: z.string(),
    }),
    run: async (args, call) => {
      const service = storymap(call.app);
      const preview = await service.reads.map(args.project_id, call.principal);
      const current = Object.fromEntries(
        Object.entries(preview.map.vision).map(([k, v]) => [k, v.text]),
      );
      const plan = planVision(args, current);
      if (plan.requires_confirmation)
        return {
          result: {
            requires_confirmation: true,
            would_overwrite: plan.would_overwrite,
            ...(await vision(call, args.project_id)),
          },
          summary: 'confirmation needed: nothing written',
        };
      const outcome = await service.setVision(args, call.principal);
      const r = await vision(call, args.project_id);
      const report =
        args.report !== undefined
          ? {
              missing_constitution_keys: r.unanswered,
              missing_sections: missingSections(parseReport(args.report)),
            }
          : {};
      return {
        result: { ...r, next_step: nextStep(r.status), ...report },
        summary: `vision ${r.status} (${r.progress})`,
        position: outcome.position,
      };
    },
  });

export const projectTools: AnyTool[] = [
  read({
    name: 'list_projects',
    title: 'List projects',
    description:
      'Lists every project you can reach, with vision status and progress. No parameters.',
    global: true,
    args: {},
    output: z.array(result({ id: z.string(), name: z.string(), vision_status: z.string() })),
    run: async (_args, call) => {
      const projects = await listProjects(call.app, storymap(call.app).reads, call.principal);
      return {
        result: projects,
        summary: `${projects.length} projects (workspace: this local intentlog ledger)`,
      };
    },
  }),
  write({
    name: 'create_project',
    title: 'Create a project',
    description:
      'Creates a project with its story map from the name the founder agreed to and a one-line idea; you become its owner. The same name and idea again within ten minutes returns that project instead of a second one. Hosts should ask before running it.',
    global: true,
    args: { name: z.string().min(1).max(200), idea: z.string().min(1).max(2000) },
    output: result({ project_id: z.string(), name: z.string(), created: z.boolean() }),
    run: async (args, call) => {
      const client = call.ctx.served.transport === 'stdio' ? 'stdio client' : 'http client';
      const r = await storymap(call.app).createProject({ ...args, client }, call.principal);
      const { position, ...rest } = r;
      return {
        result: {
          ...rest,
          link: null,
          // no absolute URL: this process does not know where (or whether) serve listens
          note: `Its web page is /projects/${rest.project_id}/storymap on intentlog serve (sign in with intentlog open); here, read it with get_context or list_stories.`,
        },
        summary: r.created
          ? `project ${r.project_id} created`
          : `project ${r.project_id} already made from this name and idea`,
        position,
      };
    },
  }),
  ...(['archive_project', 'restore_project'] as const).map((name) =>
    write({
      name,
      title: name === 'archive_project' ? 'Archive a project' : 'Restore an archived project',
      overwrites: name === 'archive_project',
      description:
        name === 'archive_project'
          ? 'Archives the project (owner only): nothing is deleted; writes are refused until restore_project.'
          : 'Restores an archived project (owner only).',
      args: {},
      output: result({ project_id: z.string(), archived: z.boolean() }),
      run: async (args, call) => {
        const o = await storymap(call.app).archive(
          args,
          call.principal,
          name === 'archive_project',
        );
        return {
          result: o.result,
          summary: `project ${o.result.archived ? 'archived' : 'restored'}`,
          position: o.position,
        };
      },
    }),
  ),
  read({
    name: 'get_session_context',
    title: 'Get session context',
    description:
      'One compact summary to start a session: workspace, project, constitution, stories (counts, current or next), sync and blockers.',
    args: {},
    output: result({ project: z.unknown(), constitution: z.unknown(), stories: z.unknown() }),
    run: async (args, call) => ({
      result: await getSessionContext(
        storymap(call.app).reads,
        args.project_id,
        call.principal,
        call.ctx.call.sessionId,
      ),
      summary: 'session context',
    }),
  }),
  read({
    name: 'get_context',
    title: 'Get project context',
    description:
      "Returns the project's INTENT.md as Markdown: brief, vision, releases, activities with their stories and criteria, decisions.",
    args: { agent_type: z.enum(['claude_code', 'cursor', 'copilot', 'windsurf']).optional() },
    output: result({ markdown: z.string() }),
    run: async (args, call) => {
      const markdown = await getContext(storymap(call.app).reads, args.project_id, call.principal);
      return { result: { markdown }, summary: markdown };
    },
  }),
  read({
    name: 'get_status',
    title: 'Get project status',
    description:
      "A text summary, and the same as fields: complete count and percentage, approved, done, in progress, todo; the vision; cancelled stories (stop all work on these); stories whose spec changed since built; ci_regressed (done or approved stories whose linked tests now fail in CI, from `intentlog storymap junit`); tests_predate_code (passing results over an hour older than the story's latest code change); sync state; and what waits on the founder (founder_todo).",
    args: {},
    output: result({ text: z.string() }),
    run: async (args, call) => {
      const todo = await founderTodoAcross(call.app, call.principal, args.project_id);
      const r = await getStatus(
        storymap(call.app).reads,
        args.project_id,
        call.principal,
        todo.items,
      );
      return { result: r, summary: r.text };
    },
  }),
  getVisionTool('get_vision'),
  getVisionTool('get_constitution'),
  setVisionTool('set_vision'),
  setVisionTool('set_constitution'),
];
