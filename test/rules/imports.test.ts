import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../support/cli.js'

const run = promisify(execFile)

/**
 * A small tree in the shape of this repository, each rule of .dependency-cruiser.cjs broken once and each of its
 * exceptions used once. The check is the one `npm test` runs (`npm run lint:imports`), with the project's config.
 */
const TREE: Record<string, string> = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true },
    include: ['src'],
  }),
  // platform imports a feature
  'src/platform/cache.ts': "import { tenantNames } from '../features/tenants/store.js'\nexport const c = tenantNames",
  // config imports the analysis
  'src/config.ts': "import { SEVERITIES } from './analysis/anomalies/detect.js'\nexport const s = SEVERITIES",
  'src/analysis/anomalies/detect.ts': 'export const SEVERITIES = []',
  // a connector imports a feature
  'src/connectors/azure/client.ts':
    "import { TENANT } from '../../features/tenants/public.js'\nexport const t = TENANT",
  'src/features/tenants/store.ts': 'export const tenantNames = 1\nexport interface TenantStore { id: string }',
  'src/features/tenants/public.ts': "export const TENANT = 1\nexport type { TenantStore } from './store.js'",
  'src/features/tenants/schemas.ts': 'export const TenantRecord = 1',
  // a public entry bringing a schema at run time, and one giving a schema's type only
  'src/features/events/public.ts': "export { EventRecord } from './schemas.js'\nexport const TENANT = 1",
  'src/features/events/schemas.ts': 'export const EventRecord = 1',
  'src/features/users/public.ts': "export type { UserRecord } from './schemas.js'",
  'src/features/users/schemas.ts': 'export type UserRecord = string',
  // a feature reaches into another's store, at run time and through types only; and uses a public entry rightly
  'src/features/insights/store.ts': [
    "import { costSeries } from '../costs/store.js'",
    "import type { CostStore } from '../costs/service.js'",
    "import { TENANT } from '../tenants/public.js'",
    "import { scope } from '../shared/chart-scope.js'",
    'export const x: CostStore | number = costSeries + TENANT + scope',
  ].join('\n'),
  'src/features/costs/store.ts': 'export const costSeries = 1',
  'src/features/costs/service.ts': 'export interface CostStore { id: string }',
  'src/features/shared/chart-scope.ts': 'export const scope = 1',
  // the wiring may reach inside
  'src/services.ts': "import { costSeries } from './features/costs/store.js'\nexport const s = costSeries",
  // a schema reuses another feature's schema (allowed) and its store (not)
  'src/features/snapshots/schemas.ts': [
    "import { TenantRecord } from '../tenants/schemas.js'",
    "import { tenantNames } from '../tenants/store.js'",
    'export const r = [TenantRecord, tenantNames]',
  ].join('\n'),
  // two modules of one feature import each other
  'src/features/reports/run.ts': "import { b } from './schedule.js'\nexport const a = b",
  'src/features/reports/schedule.ts': "import { a } from './run.js'\nexport const b = () => a",
  // two features through their folders (no module imports itself again), and two features the rule lets off
  'src/features/alerts/service.ts': "import { R } from '../reports/public.js'\nexport const s = R",
  'src/features/alerts/public.ts': 'export const A = 1',
  'src/features/reports/public.ts': 'export const R = 1',
  'src/features/reports/store.ts': "import { A } from '../alerts/public.js'\nexport const s = A",
  'src/features/costs/public.ts': "export { costSeries } from './store.js'",
  'src/features/costs/series.ts': "import { TENANT } from '../events/public.js'\nexport const s = TENANT",
  'src/features/events/service.ts': "import { costSeries } from '../costs/public.js'\nexport const s = costSeries",
  // the web UI: the routes and the tabs, two pages through their folders
  'web/src/routes.tsx': "import { TenantTabs } from './components/tenant-tabs'\nexport const TABS = [TenantTabs]",
  'web/src/components/tenant-tabs.tsx': "import { TABS } from '../routes'\nexport const TenantTabs = () => TABS",
  'web/src/pages/explorer/index.tsx':
    "import { listAnomalies } from '../anomalies/api'\nexport const E = listAnomalies",
  'web/src/pages/explorer/cost-chart.tsx': 'export const CostChart = 1',
  'web/src/pages/anomalies/api.ts': 'export const listAnomalies = 1',
  'web/src/pages/anomalies/detail.tsx':
    "import { CostChart } from '../explorer/cost-chart'\nexport const D = CostChart",
}

let dir: string
let out: string
let code: number

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'costwatch-import-rules-'))
  for (const [path, text] of Object.entries(TREE)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), `${text}\n`)
  }
  const bin = join(ROOT, 'node_modules/.bin/depcruise')
  const args = ['src', 'web/src', '--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'err-long']
  try {
    const res = await run(bin, args, { cwd: dir })
    ;[out, code] = [res.stdout + res.stderr, 0]
  } catch (err) {
    const e = err as { stdout: string; stderr: string; code: number }
    ;[out, code] = [e.stdout + e.stderr, e.code]
  }
}, 120_000)

afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The lines the check printed for one rule. */
const reported = (rule: string) =>
  out
    .split(/\n(?=\s*error )/)
    .filter((block) => block.includes(`error ${rule}:`))
    .map((block) => block.replace(/\s+/g, ' '))

describe('the import rules fail npm test with a message that says what to do', () => {
  it('fails', () => {
    expect(code, out).not.toBe(0)
  })

  it('platform/ importing a feature', () => {
    const [v, ...more] = reported('platform-imports-no-feature')
    expect(more).toEqual([])
    expect(v).toContain('src/platform/cache.ts → src/features/tenants/store.ts')
    expect(v).toContain('Pass what the platform needs as a parameter or a callback')
  })

  it('config.ts importing the analysis, a connector importing a feature', () => {
    expect(reported('config-imports-no-feature').join()).toContain('src/config.ts → src/analysis/anomalies/detect.ts')
    const lower = reported('lower-layers-import-no-feature').join()
    expect(lower).toContain('src/connectors/azure/client.ts → src/features/tenants/public.ts')
    expect(lower).toContain('know no feature')
  })

  it("a feature importing another's internals, at run time or for types, but not its public entry", () => {
    const internals = reported('feature-through-public-entry')
    expect(internals.map((v) => /: (\S+ → \S+)/.exec(v)?.[1]).sort()).toEqual([
      'src/features/insights/store.ts → src/features/costs/service.ts',
      'src/features/insights/store.ts → src/features/costs/store.ts',
    ])
    expect(internals[0]).toContain('Import from ../<name>/public.js instead')
    expect(out).not.toContain('src/services.ts →') // the wiring reaches inside
  })

  it('a public entry bringing schemas at run time, not their types', () => {
    const http = reported('public-entry-without-http')
    expect(http.map((v) => /: (\S+ → \S+)/.exec(v)?.[1])).toEqual([
      'src/features/events/public.ts → src/features/events/schemas.ts',
    ])
    expect(http[0]).toContain('export type')
  })

  it("a schema importing another feature's store, not its schema", () => {
    const schemas = reported('schemas-through-schemas')
    expect(schemas.map((v) => /: (\S+ → \S+)/.exec(v)?.[1])).toEqual([
      'src/features/snapshots/schemas.ts → src/features/tenants/store.ts',
    ])
  })

  it('a cycle of modules, in src and in the web UI', () => {
    const cycles = reported('no-import-cycles').join('\n')
    // Each circle once, from whichever of its modules comes first.
    expect(cycles).toMatch(
      /(run|schedule)\.ts → src\/features\/reports\/(schedule|run)\.ts → src\/features\/reports\/\1\.ts/,
    )
    expect(cycles).toMatch(/web\/src\/(routes|components\/tenant-tabs)\.tsx → .+ → web\/src\/\1\.tsx/)
    expect(cycles).toContain('Move the piece both need into a module of its own')
  })

  it("a cycle of two features' folders, though no module imports itself again", () => {
    const features = reported('no-cycles-between-features').join('\n')
    expect(features).toMatch(/src\/features\/(alerts|reports) → src\/features\/(reports|alerts) → src\/features\/\1/)
    expect(features).toContain('Decide which one is below the other')
    // costs and events are in FEATURES_IN_KNOWN_CYCLES
    expect(features).not.toContain('src/features/costs')
  })

  it("a cycle of two pages' folders, though no module imports itself again", () => {
    const pages = reported('no-cycles-between-web-pages').join('\n')
    expect(pages).toContain('web/src/pages/explorer → web/src/pages/anomalies → web/src/pages/explorer')
    expect(pages).toContain('web/src/components/')
  })
})

// The features the cycle rule lets off must still be in a circle, so that the list only shrinks.
describe('the features left out of the cycle rule', () => {
  it('are each in a circle of features today', async () => {
    const config = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as {
      forbidden: { name: string; from: { path: string; pathNot?: string[] } }[]
      options: Record<string, unknown>
    }
    const rule = config.forbidden.find((r) => r.name === 'no-cycles-between-features')!
    const listed = (rule.from.pathNot ?? []).map((p) => /^\^src\/features\/(.+)\$$/.exec(p)![1]!)
    expect(listed.length).toBeGreaterThan(0)
    const strict = {
      forbidden: [{ ...rule, from: { path: rule.from.path } }],
      options: { ...config.options, cache: { folder: '.cache/dependency-cruiser-features', strategy: 'content' } },
    }
    const file = join(dir, 'strict.cjs')
    writeFileSync(file, `module.exports = ${JSON.stringify(strict)}`)
    const args = ['src', '--config', file, '--include-only', '^src/features/', '--output-type', 'json']
    const res = await run(join(ROOT, 'node_modules/.bin/depcruise'), args, {
      cwd: ROOT,
      maxBuffer: 256 * 1024 * 1024,
    }).catch((err: { stdout: string }) => err)
    const { summary } = JSON.parse(res.stdout) as { summary: { violations: { from: string }[] } }
    const inCircles = new Set(summary.violations.map((v) => v.from.replace('src/features/', '')))
    const gone = listed.filter((f) => !inCircles.has(f))
    expect(
      gone,
      `in no circle any more: remove from FEATURES_IN_KNOWN_CYCLES (.dependency-cruiser.cjs): ${gone}`,
    ).toEqual([])
  }, 120_000)
})
