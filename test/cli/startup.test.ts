import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { TEST_SECRET_KEY, useTestApp } from '../support/app.js'
import { ROOT, runCli } from '../support/cli.js'

const SMALL = join(ROOT, 'test/fixtures/focus/azure-focus-small.csv')

/** What only `serve` and `worker` need: the HTTP stack, the API's schemas, report renderers, cloud SDKs, metrics. */
const HEAVY_PACKAGES = [
  'fastify',
  'typebox',
  '@fastify',
  '@scalar',
  'ajv',
  'exceljs',
  'pdfkit',
  'nodemailer',
  '@aws-sdk',
  '@azure',
  'prom-client',
]

/** Our modules that only `serve` and `worker` need: routes, pages and schemas (typebox), OpenAPI, metrics, the app. */
const HTTP_MODULES =
  /^features\/.+\/(routes|schemas|pages)\.ts$|^platform\/http\/(openapi|schemas|metrics|web|planned)\.ts$|^(app|runtime|worker)\.ts$/

/** Runs the command line, recording every module it loads (test/support/module-log.ts). */
async function modulesLoadedBy(args: string[], env: Record<string, string>, options: { isolated?: boolean } = {}) {
  const log = join(mkdtempSync(join(tmpdir(), 'costwatch-modules-')), 'modules.txt')
  const res = await runCli(
    args,
    { ...env, MODULE_LOG_FILE: log },
    { ...options, imports: ['./test/support/module-log.ts'] },
  )
  expect(res.code, res.stderr).toBe(0)
  const urls = [...new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean))]
  const packages = urls
    .flatMap((url) => /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? [])
    .filter((p, i, all) => all.indexOf(p) === i && p !== 'tsx' && p !== 'esbuild') // tsx runs the TypeScript here
  const ours = urls.flatMap((url) => /\/src\/(.+)$/.exec(url)?.[1] ?? [])
  return { res, packages, ours }
}

function expectNoHttpStack({ packages, ours }: { packages: string[]; ours: string[] }) {
  const heavy = packages.filter((p) => HEAVY_PACKAGES.some((h) => p === h || p.startsWith(`${h}/`)))
  expect(heavy).toEqual([])
  expect(ours.filter((m) => HTTP_MODULES.test(m))).toEqual([])
}

// The command line starts in a fraction of the time when it loads only what the command uses: a deploy marker sent
// from CI, an import whose benchmark times the whole process. This fails if a command loads the HTTP app again.
describe('the command line loads only what a command uses', () => {
  const t = useTestApp({ dialect: 'sqlite' })
  const env = () => ({ COSTWATCH_DATABASE_URL: t.databaseUrl, COSTWATCH_SECRET_KEY: TEST_SECRET_KEY })

  it('--help and events create load commander and none of the database or the HTTP stack', async () => {
    const help = await modulesLoadedBy(['--help'], {})
    expect(help.res.stdout).toContain('import')
    expect(help.ours).toContain('main.ts') // the log works
    expect(help.packages).toEqual(['commander'])
    expectNoHttpStack(help)
    const marker = await modulesLoadedBy(['events', 'create', '--best-effort'], {}, { isolated: true })
    expect(marker.res.stderr).toContain('COSTWATCH_URL is not set')
    expect(marker.packages).toEqual(['commander'])
    expectNoHttpStack(marker)
  })

  it('a command on the database loads the services but no routes, schemas, renderers or SDKs', async () => {
    const audit = await modulesLoadedBy(['audit', 'list', '--json'], env())
    expect(audit.packages).toContain('kysely')
    expect(audit.packages).toContain('better-sqlite3') // CommonJS, required by the module log too
    expect(audit.packages).not.toContain('pg') // required for a PostgreSQL URL alone
    expect(audit.ours).toContain('services.ts')
    expectNoHttpStack(audit)
  })

  it('import focus loads its importer and the services, and nothing of the HTTP app', async () => {
    const tenant = await t.given.tenant(await t.given.organisation())
    const imported = await modulesLoadedBy(['import', 'focus', '--tenant', tenant.id, SMALL], env())
    expect(imported.res.stdout).toContain('Imported 28 of 28 rows')
    expect(imported.ours).toContain('features/snapshots/import.ts')
    expectNoHttpStack(imported)
  })
})
