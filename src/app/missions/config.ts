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

/** From the environment: INTENTLOG_OWNER_GATE, INTENTLOG_OWNER_DIR, INTENTLOG_OWNER_CODE_TTL, INTENTLOG_DEVICE_ID. */
export const missionsConfigFromEnv = (env: NodeJS.ProcessEnv = process.env): MissionsConfig => {
  const warnings: string[] = [];
  const gate = env.INTENTLOG_OWNER_GATE ?? 'nonce';
  if (gate !== 'nonce' && gate !== 'ack_legacy')
    warnings.push(`INTENTLOG_OWNER_GATE=${gate} is unknown; using nonce`);
  const ttl = Number(env.INTENTLOG_OWNER_CODE_TTL ?? DEFAULT_TTL);
  if (!Number.isFinite(ttl) || ttl < MIN_TTL)
    warnings.push(`INTENTLOG_OWNER_CODE_TTL must be at least ${MIN_TTL} seconds; using ${MIN_TTL}`);
  return {
    gateMode: gate === 'ack_legacy' ? 'ack_legacy' : 'nonce',
    ownerDir: env.INTENTLOG_OWNER_DIR ?? defaultOwnerDir(),
    codeTtlSeconds: Number.isFinite(ttl) ? Math.max(MIN_TTL, Math.floor(ttl)) : MIN_TTL,
    deviceId: env.INTENTLOG_DEVICE_ID ?? hostname(),
    warnings,
  };
};
