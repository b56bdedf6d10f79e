#!/usr/bin/env node
// package.json `prepare`: npm runs it after `npm ci`/`npm install` (build the checkout) and also
// when `npx intentlog` runs in the checkout: npm then links the checkout itself into its npx
// cache (a symlink, not a copy) and prepares it, once per cache. A build there would rewrite
// dist/ under a server that runs from it (scripts/bundle.mjs replaces the lazily loaded
// chunks) and take minutes; the link runs this checkout's own dist/, so an existing build is
// what npx is to run. `npm run build` rebuilds.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
if (process.env.npm_command === 'exec' && existsSync(`${root}dist/cli/main.js`)) process.exit(0);
const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
process.exit(build.status ?? 1);
