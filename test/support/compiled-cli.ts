import { mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const ROOT = join(import.meta.dirname, '../..')

/**
 * The command line compiled to JavaScript once per test run, for the tests that start it as a process: through
 * tsx, each process compiles (or looks up) every module it loads again, about 2 s of CPU a start on the test
 * machine against under 1.5 s for the whole start from JavaScript. The compiler is tsx's own esbuild, with the
 * project's tsconfig, so the code that runs is the code tsx would run. Beside the sources, `node_modules` and
 * `dist` (the built web interface) link to the checkout's, so every path the code resolves from its own place
 * resolves as it does there.
 */
export async function compileCommandLine(): Promise<{ dir: string; remove(): void }> {
  const tsx = createRequire(import.meta.url).resolve('tsx/package.json')
  const esbuild = createRequire(tsx)('esbuild') as typeof import('esbuild')
  const src = join(ROOT, 'src')
  const entryPoints = readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => join(src, file))
  const dir = mkdtempSync(join(tmpdir(), 'costwatch-cli-'))
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'))
  symlinkSync(join(ROOT, 'dist'), join(dir, 'dist'))
  await esbuild.build({
    entryPoints,
    outdir: join(dir, 'src'),
    outbase: src,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    tsconfig: join(ROOT, 'tsconfig.json'),
    logLevel: 'warning',
  })
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}
