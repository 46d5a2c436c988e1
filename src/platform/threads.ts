import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { Worker, type WorkerOptions } from 'node:worker_threads'

/**
 * A worker thread running `name` (a module beside `parentUrl`, the caller's `import.meta.url`): the compiled
 * `name.js`, or, when running from the TypeScript sources (tests, `npm run eval`), `name.ts` compiled in the thread
 * by tsx as its parent's were.
 */
export function startThread(parentUrl: string, name: string, options: WorkerOptions): Worker {
  if (!parentUrl.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, parentUrl), options)
  // tsx's ESM API (its `import` export: an eval'd thread resolves with `require` conditions, whose CommonJS
  // build cannot register the ESM hooks), registered in the thread before the source is imported.
  const require = createRequire(parentUrl)
  const manifest = require.resolve('tsx/package.json')
  const exported = (require(manifest) as { exports: Record<string, { import: { default: string } }> }).exports
  const api = new URL(exported['./esm/api']!.import.default, pathToFileURL(manifest)).href
  const source = new URL(`./${name}.ts`, parentUrl).href
  const start = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}) })`
  return new Worker(start, { ...options, eval: true })
}
