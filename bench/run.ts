/**
 * `npm run bench` runs every benchmark in sequence; `npm run bench -- list` runs the named ones.
 * A benchmark is a file exporting a `Benchmark`; add it to BENCHMARKS below.
 *
 * Settings (environment): BENCH_SECONDS (8), BENCH_WARMUP_SECONDS (2), BENCH_CONNECTIONS (50),
 * BENCH_DATABASES (sqlite,postgres), COSTWATCH_BENCH_PG_URL (else a throwaway PostgreSQL; given, it gets a new
 * organisation and 100k tenants each run), BENCH_LIST_PAGES (3,1000), BENCH_CPU_PROF=<dir> (a .cpuprofile per server child),
 * BENCH_FOCUS_PULL_ROWS (10,000,000), BENCH_STRICT=1 (exit 1 when a target is missed), BENCH_TIMEOUT_SECONDS (900, 3600 with focus-pull: then everything is stopped).
 */

import { alertsBenchmark } from './alerts.js'
import { analysisBenchmark } from './analysis.js'
import { budgetsBenchmark } from './budgets.js'
import { chartsBenchmark } from './charts.js'
import { detectBenchmark } from './detect.js'
import { eventsBenchmark } from './events.js'
import { focusImportBenchmark } from './focus-import.js'
import { focusPullBenchmark } from './focus-pull.js'
import { ingestBenchmark } from './ingest.js'
import { insightsBenchmark } from './insights.js'
import { inventoryBenchmark } from './inventory.js'
import { type Benchmark, Scope } from './lib.js'
import { listBenchmark } from './list.js'
import { liveMarkersBenchmark } from './live-markers.js'
import { reportsBenchmark } from './reports.js'
import { startupBenchmark } from './startup.js'

const BENCHMARKS: Benchmark[] = [listBenchmark]
BENCHMARKS.push(ingestBenchmark)
BENCHMARKS.push(eventsBenchmark)
BENCHMARKS.push(detectBenchmark)
BENCHMARKS.push(analysisBenchmark)
BENCHMARKS.push(insightsBenchmark)
BENCHMARKS.push(focusImportBenchmark)
BENCHMARKS.push(focusPullBenchmark)
BENCHMARKS.push(reportsBenchmark)
BENCHMARKS.push(chartsBenchmark)
BENCHMARKS.push(liveMarkersBenchmark)
BENCHMARKS.push(inventoryBenchmark)
BENCHMARKS.push(alertsBenchmark)
BENCHMARKS.push(budgetsBenchmark)
BENCHMARKS.push(startupBenchmark)

const names = process.argv.slice(2)
const unknown = names.filter((n) => !BENCHMARKS.some((b) => b.name === n))
if (unknown.length) {
  process.stderr.write(
    `bench: no benchmark named ${unknown.join(', ')}; there are:\n` +
      BENCHMARKS.map((b) => `  ${b.name.padEnd(12)} ${b.description}\n`).join(''),
  )
  process.exit(2)
}
const selected = names.length ? BENCHMARKS.filter((b) => names.includes(b.name)) : BENCHMARKS

const scope = new Scope()
let closing: Promise<void> | null = null
/** Every path out (end, error, signal, watchdog) waits for the same cleanup before exiting. */
async function exit(code: number): Promise<never> {
  closing ??= scope.close()
  await closing
  process.exit(code)
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    process.stderr.write(`\nbench: ${signal}, stopping\n`)
    void exit(130)
  })
}
// focus-pull at its full size writes a 10-million-row estate the first time, then pulls it as CSV and as Parquet.
const defaultTimeout = selected.some((b) => b.name === 'focus-pull') ? 3600 : 900
const timeoutSeconds = Number(process.env.BENCH_TIMEOUT_SECONDS || defaultTimeout)
setTimeout(() => {
  process.stderr.write(`bench: still running after ${timeoutSeconds} s, stopping\n`)
  void exit(1)
}, timeoutSeconds * 1000).unref()

const missed: string[] = []
try {
  for (const benchmark of selected) {
    process.stdout.write(`\n### ${benchmark.name}: ${benchmark.description}\n`)
    const part = scope.child()
    try {
      const { met } = await benchmark.run(part)
      if (met === false) missed.push(benchmark.name)
    } finally {
      await part.close()
    }
  }
} catch (err) {
  // After a signal, what fails is only what the cleanup stopped.
  if (!scope.closed) process.stderr.write(`bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
  await exit(1)
}
if (missed.length) process.stdout.write(`\nTargets missed: ${missed.join(', ')}\n`)
await exit(missed.length && process.env.BENCH_STRICT === '1' ? 1 : 0)
