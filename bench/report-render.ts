/**
 * One report rendering in a process of its own, so that its peak RSS is its own: `bench/reports.ts` starts it
 * per format. Reads the costs of `TENANT` through the same source and kind as a report run, renders into `OUT`,
 * and prints one JSON line: { format, rows, seconds, peakRssMb, bytes }.
 */
import { statSync } from 'node:fs'
import { costByDimension } from '../src/features/reports/kinds/cost-by-dimension.js'
import type { Format } from '../src/features/reports/render/document.js'
import { renderRun } from '../src/features/reports/render/pipeline.js'
import { reportSource } from '../src/features/reports/run.js'
import { openDatabase } from '../src/platform/db/index.js'

const [databaseUrl, tenantId, format, out] = process.argv.slice(2) as [string, string, Format | 'all', string]
const db = openDatabase(databaseUrl)
const source = reportSource(db.kysely)
const parsed = costByDimension.parse({ dimension: 'Resource', period: 'Last30Days' })
if (!parsed.ok) throw new Error('bad parameters')
const period = costByDimension.period(parsed.value, '2026-03-10')
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
const formats: Format[] = format === 'all' ? ['csv', 'xlsx', 'pdf'] : [format]
process.stdout.write(
  `${JSON.stringify({
    format,
    rows: rendered.rowCount,
    seconds,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    bytes: formats.reduce((sum, f) => sum + statSync(rendered.files[f]).size, 0),
  })}\n`,
)
await db.close()
