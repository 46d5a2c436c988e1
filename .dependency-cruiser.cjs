// The import rules of docs/architecture.md ("Rules that are checked"), checked by `npm run lint:imports` (part of
// `npm test`). Each rule's comment is what the check prints when an import breaks it: it says what to do instead.
// test/rules/imports.test.ts proves that each rule catches what it names.

/** Where the features are wired together: these may import any module of any feature. */
const COMPOSITION_ROOT = [
  '^src/(services|app|worker|main|runtime|demo)\\.ts$',
  '^src/features/(index|commands|analysis/analysers)\\.ts$',
]

/**
 * Features that are in a circle of features today (costs -> events -> inventory -> costs; organisation <-> users),
 * which the rule below does not report yet: a circle with any other feature in it fails. Remove a name once its
 * circles are gone; test/rules/imports.test.ts fails while a name here is in no circle any more.
 */
const FEATURES_IN_KNOWN_CYCLES = ['costs', 'events', 'organisation', 'users']

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'platform-imports-no-feature',
      severity: 'error',
      comment:
        'src/platform/ is what every feature builds on, so it imports no feature, analysis, connector or the wiring ' +
        '(services.ts, app.ts, ...). Pass what the platform needs as a parameter or a callback from the caller ' +
        '(as the run store does with its run events), or move the shared piece into src/platform/.',
      from: { path: '^src/platform/' },
      to: { path: ['^src/(features|analysis|connectors)/', '^src/(services|app|worker|main|runtime|demo)\\.ts$'] },
    },
    {
      name: 'config-imports-no-feature',
      severity: 'error',
      comment:
        'src/config.ts reads the settings and is loaded by every command, so it imports no feature, analysis or ' +
        "connector. Keep the setting's list of allowed values in config.ts (or src/platform/) and let the feature " +
        'import it from there.',
      from: { path: '^src/config\\.ts$' },
      to: { path: ['^src/(features|analysis|connectors)/', '^src/(services|app|worker|main|runtime|demo)\\.ts$'] },
    },
    {
      name: 'lower-layers-import-no-feature',
      severity: 'error',
      comment:
        'src/connectors/ (talking to clouds, reading files) and src/analysis/ (the detectors, pure computation) ' +
        'know no feature: a feature calls them and hands them plain data. Move what both need into the lower ' +
        'layer, or into src/platform/.',
      from: { path: '^src/(connectors|analysis)/' },
      to: { path: ['^src/features/', '^src/(services|app|worker|main|runtime|demo)\\.ts$'] },
    },
    {
      name: 'feature-through-public-entry',
      severity: 'error',
      comment:
        "A feature uses another feature only through that feature's public entry, src/features/<name>/public.ts, " +
        'never its store.ts, service.ts or other inside modules. Import from ../<name>/public.js instead; if what ' +
        'you need is not there, export it from that public.ts (functions, store factories, constants and types; ' +
        'never routes or schemas, which would load the HTTP stack into the command line). Only the wiring ' +
        '(services.ts, app.ts, worker.ts, main.ts, features/index.ts, features/commands.ts, and the list of analysers, features/analysis/analysers.ts) reaches inside.',
      // schemas.ts has a rule of its own (below)
      from: { path: '^src/features/([^/]+)/', pathNot: [...COMPOSITION_ROOT, '/schemas\\.ts$'] },
      to: {
        path: '^src/features/[^/]+/',
        pathNot: [
          // its own folder
          '^src/features/$1/',
          // what several features share without belonging to one
          '^src/features/shared/',
          '^src/features/[^/]+/public\\.ts$',
          // the read path of cost data is the costs feature's second public entry
          '^src/features/costs/read(\\.ts|/index\\.ts)$',
        ],
      },
    },
    {
      name: 'public-entry-without-http',
      severity: 'error',
      comment:
        "A feature's public.ts is loaded by the command line through other features, so it brings no routes, " +
        "schemas or pages (typebox, fastify) at run time: export a schema's type with `export type`, and keep " +
        'the schema itself in schemas.ts.',
      from: { path: '^src/features/[^/]+/public\\.ts$' },
      to: {
        path: ['/(routes|schemas|pages)\\.ts$', '^node_modules/(fastify|typebox|@fastify)/'],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'schemas-through-schemas',
      severity: 'error',
      comment:
        "A feature's schemas.ts may reuse another feature's schema (a record inside a record of the API), and only " +
        "from that feature's schemas.ts: schemas load typebox, which no public.ts may bring into the command line.",
      from: { path: '^src/features/([^/]+)/schemas\\.ts$' },
      to: {
        path: '^src/features/[^/]+/',
        pathNot: ['^src/features/$1/', '^src/features/[^/]+/(schemas|public)\\.ts$'],
      },
    },
    {
      name: 'no-import-cycles',
      severity: 'error',
      comment:
        'These modules import each other in a circle (the path is printed). A circle makes the load order decide ' +
        'what is undefined at start-up and ties the modules into one. Move the piece both need into a module of ' +
        'its own (types into a types module, a constant next to its one user) that imports neither.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-cycles-between-features',
      severity: 'error',
      scope: 'folder',
      comment:
        'These features import each other in a circle (through any of their modules, types included), so none of ' +
        'them can be understood, tested or changed alone. Decide which one is below the other and let only the ' +
        'upper one import: move what the lower one needs into it, into features/shared/ or src/platform/, or have ' +
        'the upper one pass it in (a parameter, a callback) where it is wired.',
      from: { path: '^src/features/[^/]+$', pathNot: FEATURES_IN_KNOWN_CYCLES.map((f) => `^src/features/${f}$`) },
      to: { path: '^src/features/[^/]+$', circular: true },
    },
    {
      name: 'no-cycles-between-web-pages',
      severity: 'error',
      scope: 'folder',
      comment:
        "Two pages of the web UI import each other's modules in a circle (a page's folder and another's). Pages " +
        'use each other one way only: move what both use (a chart, a list) into web/src/components/.',
      // Between page folders; the module rule above sees every other cycle, components included.
      from: { path: '^web/src/pages/' },
      to: { path: '^web/src/pages/', circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['\\.test\\.tsx?$', '\\.css$', '\\.svg$'] },
    // `import type` counts: a cycle or an import of internals through types only is still one the reader follows.
    // Each dependency says whether it is type-only (`dependencyTypes`), so a rule can tell them apart.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
    // The result is kept between runs and redone for the files whose content changed: about 10 s of CPU for a
    // whole cruise, 3 s with the cache.
    cache: { folder: '.cache/dependency-cruiser', strategy: 'content' },
  },
}
