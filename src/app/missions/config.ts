import { hostname } from 'node:os';
import type { GateMode } from '../../events/missions/index.js';
import { defaultOwnerDir } from './owner-channel.js';

/** How the missions surface runs on this machine: the owner gate, its channel, this device. */
export type MissionsConfig = {
  gateMode: GateMode;
  ownerDir: string;
  /** lifetime of an owner code in seconds (at least 30) */
  codeTtlSeconds: number;
  deviceId: string;
  /** what was wrong in the environment (reported by hai_health) */
  warnings: string[];
};

const MIN_TTL = 30;
const DEFAULT_TTL = 600;

/** `INTENTLOG_<name>`, else HAI-MCP's `HAI_<name>`; a blank value counts as unset. */
const setting = (env: NodeJS.ProcessEnv, name: string): string | undefined =>
  env[`INTENTLOG_${name}`] || env[`HAI_${name}`] || undefined;

/** HAI-MCP's gate names: `ack` is ack_legacy. */
const GATES: Record<string, GateMode> = {
  nonce: 'nonce',
  ack_legacy: 'ack_legacy',
  ack: 'ack_legacy',
};

/**
 * From the environment: INTENTLOG_OWNER_GATE, INTENTLOG_OWNER_DIR, INTENTLOG_OWNER_CODE_TTL,
 * INTENTLOG_DEVICE_ID, each falling back to HAI-MCP's name (HAI_OWNER_GATE, HAI_OWNER_HOME,
 * HAI_OWNER_CODE_TTL), so that a HAI-MCP client's configuration works unchanged.
 */
export const missionsConfigFromEnv = (env: NodeJS.ProcessEnv = process.env): MissionsConfig => {
  const warnings: string[] = [];
  const gate = setting(env, 'OWNER_GATE') ?? 'nonce';
  const mode = Object.hasOwn(GATES, gate) ? GATES[gate] : undefined;
  if (mode === undefined) warnings.push(`OWNER_GATE=${gate} is unknown; using nonce`);
  const channel = env.HAI_OWNER_CHANNEL || 'file';
  if (channel !== 'file')
    warnings.push(`HAI_OWNER_CHANNEL=${channel} is not offered; codes go to the owner directory`);
  const ttl = Number(setting(env, 'OWNER_CODE_TTL') ?? DEFAULT_TTL);
  if (!Number.isFinite(ttl) || ttl < MIN_TTL)
    warnings.push(`INTENTLOG_OWNER_CODE_TTL must be at least ${MIN_TTL} seconds; using ${MIN_TTL}`);
  return {
    gateMode: mode ?? 'nonce',
    ownerDir: env.INTENTLOG_OWNER_DIR || env.HAI_OWNER_HOME || defaultOwnerDir(),
    codeTtlSeconds: Number.isFinite(ttl) ? Math.max(MIN_TTL, Math.floor(ttl)) : MIN_TTL,
    deviceId: env.INTENTLOG_DEVICE_ID || hostname(),
    warnings,
  };
};

const configured = new WeakMap<object, MissionsConfig>();

/** Sets an app's missions configuration (configureMissions, service.ts). */
export const setMissionsConfig = (app: object, config: MissionsConfig): void => {
  configured.set(app, config);
};

/**
 * An app's missions configuration: what was set for it, else the environment's. Read when it is
 * used, not kept: the writer's work starts while the app opens, before a test configures it.
 */
export const missionsConfigOf = (app: object): MissionsConfig =>
  configured.get(app) ?? missionsConfigFromEnv();
