/**
 * How long the server takes to start: from spawning the process to its port, as `costwatch serve` builds it
 * (config, migrations already applied, createRuntime with every feature's routes and schemas compiled, listen),
 * BENCH_STARTUP_RUNS (5) times on SQLite, against a bare `node:http` server started the same way (Node and tsx
 * alone) in the same run. The server reports its steps by its own clock: loading its modules (tsx compiles them
 * from TypeScript here; `dist` loads them as JavaScript), opening the database, createRuntime (routes registered)
 * and listening (Fastify's ready: every route's validators and response serializers compiled). Target: from the
 * modules loaded to listening under 2 s on 2 cores (the serializers get only the schemas each response reaches:
 * docs/architecture.md, "The contract typed once"). BENCH_CPU_PROF=<dir> writes a profile of each start.
 */
import { type Benchmark, bareServer, fmt, heading, note, printTable, sqliteDatabase, startCostwatch } from './lib.js'
import { intFromEnv } from './support.js'

const TARGET_OWN_MS = 2_000

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

export const startupBenchmark: Benchmark = {
  name: 'startup',
  description: 'spawn to listening: the server against a bare node:http server',
  async run(scope) {
    const runs = intFromEnv('BENCH_STARTUP_RUNS', 5)
    const database = sqliteDatabase(scope)
    // The first start migrates the new database: not counted.
    const first = scope.child()
    try {
      await startCostwatch(first, database)
    } finally {
      await first.close()
    }
    const times = { server: [] as number[], bare: [] as number[] }
    const phases: Record<string, number>[] = []
    for (let i = 0; i < runs; i++) {
      for (const which of ['bare', 'server'] as const) {
        const part = scope.child()
        try {
          const started = performance.now()
          if (which === 'server')
            phases.push((await startCostwatch(part, database)).ready.phases as Record<string, number>)
          else await bareServer(part, Buffer.from('ok'), 'text/plain')
          times[which].push(performance.now() - started)
        } finally {
          await part.close()
        }
      }
    }
    heading(`startup: spawn to listening, median of ${runs} (SQLite, migrated)`)
    printTable(
      ['process', 'median', 'min', 'max'],
      (['bare', 'server'] as const).map((which) => [
        which === 'bare' ? 'bare node:http (Node and tsx)' : 'Costwatch server (createRuntime)',
        fmt.ms(median(times[which])),
        fmt.ms(Math.min(...times[which])),
        fmt.ms(Math.max(...times[which])),
      ]),
    )
    // Where the server's start goes, from its own clock (milliseconds since its process began).
    const steps = [
      ['Node, tsx and every module loaded', 'modules', null],
      ['database opened and migrations checked', 'migrated', 'modules'],
      ['createRuntime (routes registered)', 'runtime', 'migrated'],
      ['listening (validators and serializers compiled)', 'listening', 'runtime'],
    ] as const
    printTable(
      ['server step', 'median'],
      steps.map(([label, end, start]) => [label, fmt.ms(median(phases.map((p) => p[end]! - (start ? p[start]! : 0))))]),
    )
    const own = median(phases.map((p) => p.listening! - p.modules!))
    const met = own < TARGET_OWN_MS
    note(
      `the server's own start (modules loaded to listening): ${fmt.ms(own)}; the whole start ` +
        `${fmt.ms(median(times.server) - median(times.bare))} more than the bare server's; target under ` +
        `${TARGET_OWN_MS / 1000} s: ${met ? 'met' : 'MISSED'}`,
    )
    return { met }
  },
}
