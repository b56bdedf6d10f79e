import { openApp } from '../app/app.js';
import { runHook } from '../app/intent-hooks.js';
import type { HookCall, HookOutput } from '../app/intent/hook-wire.js';
import { kernelModules } from '../modules/kernel.js';

/**
 * A Hook with no writer to ask: this process opens the app with the registry's kernel part
 * (events and read models, no surfaces), becoming the writer or a follower, and runs it.
 */
export const answerInProcess = async (
  call: HookCall,
  where: { dataDir: string; store?: string },
): Promise<HookOutput> => {
  const app = await openApp({
    modules: kernelModules,
    dataDir: where.dataDir,
    ...(where.store ? { store: where.store } : {}),
  });
  try {
    return await runHook(app, call.event, call.input);
  } finally {
    await app.close();
  }
};
