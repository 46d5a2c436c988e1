/**
 * Evaluation of anomaly detection end to end: `npm run eval -- --seed N` (repeat --seed, or give a range `11-15`).
 * For each seed: a labelled estate (eval/estate.ts) written as FOCUS CSV files, imported through the real
 * `costwatch import focus` command into a fresh SQLite database, analysed by a worker's analysis run, and scored.
 *
 * Matching: a planted change is found when an anomaly on its resource was raised within one day of its first day.
 * A resource anomaly that matches no planted change is a false positive (a flagged decoy among them). Precision,
 * recall and F1 are over resource anomalies; anomalies of broader scopes are counted beside them.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadConfig } from '../src/config.js'
import { fixedClock } from '../src/platform/clock.js'
import { migrateToLatest, openDatabase } from '../src/platform/db/index.js'
import { createRuntime } from '../src/runtime.js'
import { type Estate, focusFiles, generateEstate } from './estate.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const SECRET = Buffer.alloc(32, 3).toString('base64')

function seedsOf(args: string[]): number[] {
  const seeds: number[] = []
  for (let i = 0; i < args.length; i++) {
    if (args[i] !== '--seed') continue
    const value = args[++i] ?? ''
    const range = /^(\d+)-(\d+)$/.exec(value)
    if (range) for (let s = Number(range[1]); s <= Number(range[2]); s++) seeds.push(s)
    else if (/^\d+$/.test(value)) seeds.push(Number(value))
    else throw new Error(`--seed takes a number or a range such as 11-15, got "${value}"`)
  }
  if (seeds.length === 0) throw new Error('usage: npm run eval -- --seed N [--seed M | --seed 11-15]')
  return seeds
}

interface Score {
  seed: number
  labels: number
  found: number
  detected: number
  truePositives: number
  decoysFlagged: number
  broader: number
  missed: string[]
  extra: string[]
}

async function evaluate(seed: number): Promise<Score> {
  const dir = mkdtempSync(join(tmpdir(), `costwatch-eval-${seed}-`))
  try {
    const estate = generateEstate(seed)
    const files = [...focusFiles(estate)].map(([month, text]) => {
      const file = join(dir, `focus-${month}.csv`)
      writeFileSync(file, text)
      return file
    })
    const env = { COSTWATCH_DATABASE_URL: join(dir, 'costwatch.db'), COSTWATCH_SECRET_KEY: SECRET }
    const tenantId = await withRuntime(env, async (rt) => {
      const { owner, organisation } = await rt.services.organisations.create({
        name: `Eval ${seed}`,
        ownerEmail: 'eval@costwatch.test',
      })
      const tenant = await rt.services.tenants.create(
        {
          organisationId: organisation.id,
          actor: { type: 'User', id: owner.id, name: owner.email },
          isOwner: true,
          tenancyRoles: new Map(),
        },
        { name: 'Eval estate', cloudTenantId: `eval-${seed}.onmicrosoft.com`, credentialType: 'ManagedIdentity' },
      )
      return tenant.id
    })

    const imported = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'src/main.ts', 'import', 'focus', '--tenant', tenantId, ...files],
      { cwd: ROOT, env: { ...process.env, ...env, COSTWATCH_LOG_LEVEL: 'warn' }, encoding: 'utf8' },
    )
    if (imported.status !== 0) throw new Error(`costwatch import focus failed:\n${imported.stderr}`)

    const anomalies = await withRuntime(env, async (rt, db) => {
      const worker = rt.worker({ log: () => {} })
      while (await worker.runOnce()) {}
      const [run] = await rt.services.analysisStore.ofTenant(tenantId)
      if (run?.status !== 'Succeeded') throw new Error(`the analysis run did not succeed: ${JSON.stringify(run)}`)
      return db.kysely
        .selectFrom('anomalies')
        .select(['scopeKey', 'dateRaised'])
        .where('tenantId', '=', tenantId)
        .execute()
    })
    return score(seed, estate, anomalies)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

async function withRuntime<T>(
  env: Record<string, string>,
  work: (rt: Awaited<ReturnType<typeof createRuntime>>, db: ReturnType<typeof openDatabase>) => Promise<T>,
): Promise<T> {
  const config = loadConfig({
    ...env,
    COSTWATCH_CONNECTOR: 'simulated',
    COSTWATCH_LOG_LEVEL: 'silent',
    COSTWATCH_SNAPSHOT_HOUR: '23',
  })
  const db = openDatabase(config.databaseUrl, { synchronous: config.sqliteSynchronous })
  await migrateToLatest(db)
  const rt = await createRuntime({ db, config, clock: fixedClock('2026-06-01T06:00:00.000Z') })
  try {
    return await work(rt, db)
  } finally {
    await rt.app.close()
    await db.close()
  }
}

const dayDiff = (a: string, b: string) => Math.round((Date.parse(a) - Date.parse(b)) / 86_400_000)

function score(seed: number, estate: Estate, anomalies: { scopeKey: string; dateRaised: string }[]): Score {
  const onResources = anomalies.filter((a) => a.scopeKey.startsWith('resource:'))
  const matches = (a: { scopeKey: string; dateRaised: string }, l: { armId: string; start: string }) =>
    a.scopeKey === `resource:${l.armId.toLowerCase()}` && Math.abs(dayDiff(a.dateRaised, l.start)) <= 1
  const found = estate.labels.filter((l) => onResources.some((a) => matches(a, l)))
  const truePositives = onResources.filter((a) => estate.labels.some((l) => matches(a, l)))
  const falsePositives = onResources.filter((a) => !estate.labels.some((l) => matches(a, l)))
  const decoysFlagged = estate.decoys.filter((d) =>
    onResources.some((a) => a.scopeKey === `resource:${d.armId.toLowerCase()}`),
  ).length
  return {
    seed,
    labels: estate.labels.length,
    found: found.length,
    detected: onResources.length,
    truePositives: truePositives.length,
    decoysFlagged,
    broader: anomalies.length - onResources.length,
    missed: estate.labels
      .filter((l) => !found.includes(l))
      .map((l) => `${l.kind} ${l.armId.split('/').pop()} ${l.start}`),
    extra: falsePositives.map((a) => `${a.scopeKey.split('/').pop()} ${a.dateRaised}`),
  }
}

const f1 = (p: number, r: number) => (p + r === 0 ? 0 : (2 * p * r) / (p + r))
const fixed = (x: number) => x.toFixed(3)

const results: Score[] = []
for (const seed of seedsOf(process.argv.slice(2))) {
  const s = await evaluate(seed)
  results.push(s)
  const precision = s.detected === 0 ? 1 : s.truePositives / s.detected
  const recall = s.labels === 0 ? 1 : s.found / s.labels
  console.log(
    `seed ${seed}: planted ${s.labels}, found ${s.found}, resource anomalies ${s.detected} ` +
      `(false ${s.detected - s.truePositives}, decoys flagged ${s.decoysFlagged}), broader-scope anomalies ${s.broader}; ` +
      `precision ${fixed(precision)} recall ${fixed(recall)} F1 ${fixed(f1(precision, recall))}`,
  )
  if (process.argv.includes('--verbose')) {
    for (const m of s.missed) console.log(`  missed ${m}`)
    for (const e of s.extra) console.log(`  extra  ${e}`)
  }
}
if (results.length > 1) {
  const sum = (k: keyof Score) => results.reduce((a, s) => a + (s[k] as number), 0)
  const precision = sum('detected') === 0 ? 1 : sum('truePositives') / sum('detected')
  const recall = sum('labels') === 0 ? 1 : sum('found') / sum('labels')
  console.log(
    `all ${results.length} seeds: planted ${sum('labels')}, found ${sum('found')}, resource anomalies ` +
      `${sum('detected')}, decoys flagged ${sum('decoysFlagged')}; precision ${fixed(precision)} recall ` +
      `${fixed(recall)} F1 ${fixed(f1(precision, recall))}`,
  )
}
