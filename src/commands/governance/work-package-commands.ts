import { newId, type EventLog } from '../../events/index.js';
import type { GateOutcome, Verdict } from '../../events/governance/index.js';
import type { CommandOutcome } from '../handler.js';
import { notFound } from '../errors.js';
import type { Project } from '../project/index.js';
import { resolveCaller, type Access } from './access.js';
import type { Caller } from './roles.js';
import { runGovernance, type GovernanceCall } from './run.js';
import { GovernanceStreams } from './streams.js';
import { workPackageDecider } from './work-package.js';
import {
  artifactKey,
  commitKey,
  reviewOf,
  workPackageResult,
  type WorkPackage,
  type WorkPackageCommand,
  type WorkPackageEvent,
} from './work-package-state.js';
import { own } from '../../events/own.js';

type Args = Record<string, unknown> & { project_id: string };
type OnPackage = Args & { work_package_id: string };

/** What the write side needs from the read side, injected by the app (layers stay apart). */
export type GovernanceLookups = {
  /** the work package a review belongs to; undefined when no such review exists */
  workPackageOfReview(projectId: string, reviewId: string): Promise<string | undefined>;
};

type PackageRun<R> = {
  workPackageId: string;
  operation: string;
  build: (by: Caller, project: Project) => WorkPackageCommand;
  respond: (state: WorkPackage, events: WorkPackageEvent[]) => R;
  access?: Access;
};

export const reviewResult = (state: WorkPackage, reviewId: string) => {
  const review = state.reviews.get(reviewId);
  return review && { project_id: state.project_id, ...reviewOf(review) };
};

/** The commands whose rules live on the work package stream. */
export const workPackageCommands = (log: EventLog, lookups: GovernanceLookups) => {
  const onPackage = async <R>(
    args: Args,
    call: GovernanceCall,
    run: PackageRun<R>,
  ): Promise<CommandOutcome<R>> => {
    const { caller, project } =
      run.access ?? (await resolveCaller(log, args.project_id, call.principal));
    return runGovernance(log, call, {
      decider: workPackageDecider,
      stream: GovernanceStreams.workPackage(args.project_id, run.workPackageId),
      projectId: args.project_id,
      caller,
      command: run.build(caller, project),
      operation: run.operation,
      args,
      correlationId: run.workPackageId,
      respond: run.respond,
    });
  };
  const asPackage = (state: WorkPackage) => workPackageResult(state);
  const simple = <R>(
    operation: string,
    args: OnPackage,
    call: GovernanceCall,
    build: (by: Caller) => WorkPackageCommand,
    respond: (state: WorkPackage) => R,
  ) => onPackage(args, call, { workPackageId: args.work_package_id, operation, build, respond });

  return {
    issueWorkPackage: (
      args: OnPackage & { title: string; description?: string; acceptance_criteria?: string[] },
      call: GovernanceCall,
    ) =>
      simple(
        'issue_work_package',
        args,
        call,
        (by) => ({
          type: 'IssueWorkPackage',
          data: {
            by,
            project_id: args.project_id,
            work_package_id: args.work_package_id,
            title: args.title,
            description: args.description ?? null,
            acceptance_criteria: args.acceptance_criteria ?? [],
          },
        }),
        asPackage,
      ),

    claimWorkPackage: (args: OnPackage, call: GovernanceCall) =>
      simple(
        'claim_work_package',
        args,
        call,
        (by) => ({ type: 'ClaimWorkPackage', data: { by } }),
        asPackage,
      ),

    submitResult: (args: OnPackage & { summary: string }, call: GovernanceCall) =>
      simple(
        'submit_result',
        args,
        call,
        (by) => ({
          type: 'SubmitResult',
          data: { by, summary: args.summary },
        }),
        asPackage,
      ),

    requestReview: (args: OnPackage & { reviewer_id: string }, call: GovernanceCall) => {
      const review_id = newId('rev');
      return onPackage(args, call, {
        workPackageId: args.work_package_id,
        operation: 'request_review',
        build: (by, project) => ({
          type: 'RequestReview',
          data: {
            by,
            review_id,
            reviewer_id: args.reviewer_id,
            reviewer_role: own(project.members, args.reviewer_id)?.roles.governance ?? null,
          },
        }),
        respond: (state) => ({ review_id, review: reviewResult(state, review_id)! }),
      });
    },

    async submitReview(
      args: Args & { review_id: string; verdict: Verdict; notes?: string },
      call: GovernanceCall,
    ) {
      const access = await resolveCaller(log, args.project_id, call.principal);
      const workPackageId = await lookups.workPackageOfReview(args.project_id, args.review_id);
      if (!workPackageId) throw notFound('review not found', { review_id: args.review_id });
      return onPackage(args, call, {
        workPackageId,
        operation: 'submit_review',
        access,
        build: (by) => ({
          type: 'SubmitReview',
          data: { by, review_id: args.review_id, verdict: args.verdict, notes: args.notes ?? null },
        }),
        respond: (state) => reviewResult(state, args.review_id)!,
      });
    },

    linkCommit: (
      args: OnPackage & { commit_id: string; repository?: string },
      call: GovernanceCall,
    ) => {
      const repository = args.repository ?? null;
      return simple(
        'link_commit',
        args,
        call,
        (by) => ({
          type: 'LinkCommit',
          data: { by, commit_id: args.commit_id, repository },
        }),
        (state) => ({
          project_id: state.project_id,
          work_package_id: state.work_package_id,
          ...state.commits.get(commitKey(args.commit_id.toLowerCase(), repository))!,
        }),
      );
    },

    linkArtifact: (args: OnPackage & { uri: string; title?: string }, call: GovernanceCall) => {
      const title = args.title ?? null;
      return simple(
        'link_artifact',
        args,
        call,
        (by) => ({
          type: 'LinkArtifact',
          data: { by, uri: args.uri, title },
        }),
        (state) => ({
          project_id: state.project_id,
          work_package_id: state.work_package_id,
          ...state.artifacts.get(artifactKey(args.uri, title))!,
        }),
      );
    },

    closeGate: (
      args: OnPackage & { outcome: GateOutcome; reason?: string },
      call: GovernanceCall,
    ) =>
      simple(
        'close_gate',
        args,
        call,
        (by) => ({
          type: 'CloseGate',
          data: { by, outcome: args.outcome, reason: args.reason ?? null },
        }),
        asPackage,
      ),
  };
};
