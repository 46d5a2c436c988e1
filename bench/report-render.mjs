/**
 * One report rendering in a process of its own, so that its peak RSS is its own: `bench/reports.ts` starts it per
 * format with plain `node` on the compiled service (`BUILD`, from tsconfig.build.json), as production runs it; under
 * tsx the loader alone holds ~150 MB. Reads the costs of `TENANT` through the same source and kind as a report run,
 * renders into `OUT`, and prints one JSON line: { format, rows, seconds, peakRssMb, bytes }.
 */
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const [build, databaseUrl, tenantId, format, out] = process.argv.slice(2)
const load = (path) => import(pathToFileURL(join(build, path)).href)
const { costByDimension } = await load('features/reports/kinds/cost-by-dimension.js')
const { renderRun } = await load('features/reports/render/pipeline.js')
const { reportSource } = await load('features/reports/run.js')
const { openDatabase } = await load('platform/db/index.js')

const db = openDatabase(databaseUrl)
const source = reportSource(db.kysely, db.dialect)
const parsed = costByDimension.parse({ dimension: 'Resource', period: 'Last30Days' })
const period = costByDimension.period(parsed.value, '2026-03-10')
const baselineMb = process.memoryUsage().rss / 1024 / 1024
const started = performance.now()
const rendered = await renderRun({
  data: costByDimension.produce(parsed.value, { tenancyIds: [tenantId], period, source }),
  heading: {
    title: 'Cost by resource',
    subtitle: costByDimension.subtitle(parsed.value),
    description: null,
    period,
    scope: 'Benchmark',
    generatedAt: new Date(),
  },
  series: await source.dailyTotals([tenantId], period),
  dir: out,
  formats: format === 'all' ? undefined : [format],
})
const seconds = (performance.now() - started) / 1000
const formats = format === 'all' ? ['csv', 'xlsx', 'pdf'] : [format]
process.stdout.write(
  `${JSON.stringify({
    format,
    rows: rendered.rowCount,
    seconds,
    baselineMb,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    bytes: formats.reduce((sum, f) => sum + statSync(rendered.files[f]).size, 0),
  })}\n`,
)
await db.close()
