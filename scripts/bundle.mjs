#!/usr/bin/env node
// The build's last step (package.json `build`, after tsc): bundles the CLI that tsc wrote to
// dist/cli/main.js into that same file, with the commands it loads on demand as chunks beside
// it (dist/cli/bundle-*.js). Hosts start `intentlog mcp` on every session and `intentlog hook` on
// every prompt; on Node 20 the ES module loader spends about 1 ms on each file it resolves,
// reads and links, and the CLI's commands load 200 to 500 files (zod alone is 95). The rest of
// dist/ stays as tsc wrote it: tests, benches and the build's own table read it.
import { readdir, readFile, rm } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist/cli`;

/**
 * A module that finds files beside itself (`new URL('../../package.json', import.meta.url)`)
 * keeps finding them from its own place in dist/: its `import.meta.url` becomes its original
 * URL, worked out from the URL of the chunk it lands in (every chunk is in `outdir`).
 */
const ownLocation = {
  name: 'own-location',
  setup(bundler) {
    bundler.onLoad({ filter: /[\\/]dist[\\/].*\.js$/ }, async ({ path }) => {
      const text = await readFile(path, 'utf8');
      if (!text.includes('import.meta.url')) return { contents: text, loader: 'js' };
      const from = relative(outdir, dirname(path)).split('\\').join('/');
      const own = `${from ? `${from}/` : ''}${path.split(/[\\/]/).at(-1)}`;
      const url = `new URL(${JSON.stringify(own)}, import.meta.url).href`;
      return { contents: text.replaceAll('import.meta.url', url), loader: 'js' };
    });
  },
};

// the chunks of an earlier build: their names change with their contents
for (const name of await readdir(outdir))
  if (name.startsWith('bundle-')) await rm(`${outdir}/${name}`);

/**
 * zod's `z.locales` and `core.locales` (its error messages in 40 languages, half of zod's
 * bytes) are left with English only, the one `z` configures itself with: nothing here sets
 * another (`z.config`).
 */
const englishOnly = {
  name: 'zod-english-only',
  setup(bundler) {
    bundler.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, ({ importer }) =>
      /[\\/]zod[\\/]v4[\\/](classic|core)[\\/]/.test(importer)
        ? { path: resolve(dirname(importer), '../locales/index.js'), namespace: 'zod-english-only' }
        : undefined,
    );
    bundler.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, ({ path }) => ({
      contents: "export { default as en } from './en.js';",
      resolveDir: dirname(path),
      loader: 'js',
    }));
  },
};

/**
 * The registry's web pages and context commands stay out of the `mcp` bundle below: an `mcp`
 * process never asks for them (mcp-main.ts reads the kernel and the surfaces only). Their
 * import()s are left pointing at the files tsc wrote.
 */
const registryPartsLeftOut = {
  name: 'registry-parts-left-out',
  setup(bundler) {
    bundler.onResolve({ filter: /^\.\.\/(web|cli)\// }, ({ path, importer, kind }) => {
      if (kind !== 'dynamic-import' || !/[\\/]dist[\\/]modules[\\/]/.test(importer)) return;
      const from = relative(outdir, resolve(dirname(importer), path))
        .split('\\')
        .join('/');
      return { path: from.startsWith('.') ? from : `./${from}`, external: true };
    });
  },
};

const shared = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // native addons find their binaries from their own directory; optional ones may be absent
  external: ['classic-level', 'msgpackr-extract', 'pg-native'],
  // the CommonJS packages bundled here call require() for Node's own modules
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  plugins: [ownLocation, englishOnly],
  // names kept, for readable stacks (INTENTLOG_DEBUG): the bytes to compile are what costs
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
};

await build({
  ...shared,
  entryPoints: [`${outdir}/main.js`],
  outdir,
  chunkNames: 'bundle-[name]-[hash]',
  allowOverwrite: true,
  splitting: true,
  // bundled whole on its own, below
  external: [...shared.external, '*/mcp-main.js'],
});

/**
 * `intentlog mcp` past its early answer (src/cli/mcp-main.ts) as one file, dist/cli/mcp-main.js,
 * without splitting: the registry loads each context's kernel and surfaces by its own import(),
 * and split, those parts and what they share come to about 40 chunks of 2 KB, a millisecond
 * each to load. Its copy of a module main.js also loaded holds no state but the early reader,
 * which src/mcp/stdio-early.ts keeps on `globalThis` for that reason.
 */
await build({
  ...shared,
  entryPoints: [`${outdir}/mcp-main.js`],
  outfile: `${outdir}/mcp-main.js`,
  allowOverwrite: true,
  plugins: [...shared.plugins, registryPartsLeftOut],
});

/**
 * `intentlog-hook` (the plugin's Hooks) as one CommonJS file, dist/cli/hook.cjs: a Hook reads a
 * view file and appends to the spool (src/app/intent/hook-light.ts), with Node's own modules
 * only, and a single CommonJS file starts within milliseconds of bare Node where the ES module
 * loader spends about 1 ms a file. The full CLI (main.js, the bundle above) stays an ES module
 * beside it, loaded only for a line that is not a Hook (`--help`).
 */
await build({
  entryPoints: [`${outdir}/hook.js`],
  outfile: `${outdir}/hook.cjs`,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: ['*/main.js'],
  logLevel: 'warning',
});
