// The house's import rules (docs/architecture.md, "Import rules"), checked by `npm run lint`.
//
// src/<layer>/ holds the kernel's machinery; src/<layer>/<context>/ one context's code, with the
// same context names in every layer. `project` is the context every other shares (projects,
// roots, tokens, sign-in): anyone may import it, and it imports only the kernel.
const CONTEXTS = 'governance|storymap|intent|missions';
const CONTEXT = `^src/[^/]+/(${CONTEXTS})/`;

// the layers, lowest first: a file imports its own layer and the ones below it
const LAYERS = ['events', 'commands', 'projections', 'app', 'mcp', 'web', 'cli', 'modules'];
const below = (layer) => LAYERS.slice(0, LAYERS.indexOf(layer) + 1).join('|');
// the binaries' entry points and what they load the registry with: they sit above src/modules
const CLI_ENTRIES = '^src/cli/[^/]+[.]ts$';

// what composes the contexts: the registry, and the Hook bin's entry chain (its path,
// dist/cli/hook.cjs, is the package's `intentlog-hook`: it stays at the CLI's root)
const COMPOSITION = ['^src/modules/', '^src/cli/hook(-run|-in-process|-writer)?[.]ts$'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'context-imports-own-context',
      comment:
        'A context imports its own folders, the project context and the kernel, never another ' +
        'context: share through the kernel or the project context instead.',
      severity: 'error',
      from: { path: CONTEXT },
      to: { path: CONTEXT, pathNot: '^src/[^/]+/$1/' },
    },
    {
      name: 'kernel-imports-no-context',
      comment:
        'The kernel, the project context included, imports no other context: a context plugs ' +
        'in through its declaration in src/modules.',
      severity: 'error',
      from: { path: '^src/', pathNot: [CONTEXT, ...COMPOSITION] },
      to: { path: CONTEXT },
    },
    ...LAYERS.map((layer) => ({
      name: `layer-${layer}`,
      comment: `src/${layer} imports its own layer and the ones below it (${below(layer)}).`,
      severity: 'error',
      from: { path: `^src/${layer}/`, pathNot: CLI_ENTRIES },
      to: { path: '^src/', pathNot: `^src/(${below(layer)})/` },
    })),
    {
      name: 'layer-cli-entries',
      comment: "The CLI's entry points (src/cli/*.ts) also read the registry, src/modules.",
      severity: 'error',
      from: { path: CLI_ENTRIES },
      to: { path: '^src/', pathNot: `^src/(${below('modules')})/` },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
