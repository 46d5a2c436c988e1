/**
 * Evaluation of anomaly detection end to end (`npm run eval -- forecast` evaluates the forecast instead: see
 * eval/forecast.ts): `npm run eval` runs the standard set (each estate kind below, seeds
 * 1-10, in sequence) and prints the table and whether each target is met; `--seed N` (repeat it, or give a range
 * `11-15`) picks the seeds, `--estate NAME` (repeatable) the kinds, `--verbose` lists every miss and false alarm.
 * For each seed: an estate (eval/estate.ts) written as FOCUS CSV files, imported through the real
 * `costwatch import focus` command into a fresh SQLite database, analysed by a worker's analysis run, and scored.
 *
 * Scoring counts every anomaly on every scope. A planted change (spike, drop, level shift, new resource, removal)
 * explains an anomaly on each scope that contains its resource (the tenant, its subscription, resource group and
 * service, the resource) raised within one day of its start (an episode is matched by its start). An anomaly no
 * planted change explains is a false alarm; so is one on a removed resource itself (a removal is no outage) and
 * one on a decoy. Recall is over the planted changes detection must find (not removals), on their resource; per
 * scope kind, over the changes large enough there to be worth raising (at least twice the minimum impact, in money
 * and percent, on the day). After a lasting change (shift, new resource, removal) each scope that contains it is
 * watched for six weeks: the days it raises anomalies that no other planted change explains (later ones are no
 * longer its doing, and count as false alarms).
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
import { focusFiles, generateEstate } from './estate.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const SECRET = Buffer.alloc(32, 3).toString('base64')

import { DEFAULT_DETECTION } from '../src/config.js'
import { addDays } from '../src/platform/time.js'
import { type Estate, type EstateOptions, FOUND_KINDS, LASTING_KINDS, type Label } from './estate.js'

interface EstateKind extends EstateOptions {
  name: string
  currency: string
  /** Labelled estates are held to the F1 target, clean ones to the false-alarm rate. */
  labelled: boolean
  /** In the standard set (`npm run eval` without --estate); else run only when named, to keep the set short. */
  standard?: boolean
}

const ESTATE_KINDS: EstateKind[] = [
  { name: 'labelled-180', days: 180, currency: 'EUR', labelled: true, lifecycle: true, partialNewestDay: true },
  { name: 'clean-180', days: 180, currency: 'GBP', labelled: false, clean: true, partialNewestDay: true },
  { name: 'labelled-400', days: 400, currency: 'USD', labelled: true, lifecycle: true, partialNewestDay: true },
  { name: 'clean-400', days: 400, currency: 'JPY', labelled: false, clean: true, standard: false },
]
const TARGET_F1 = 0.95
const TARGET_CLEAN_PER_10K = 1
const TARGET_DAYS_AFTER_LASTING = 2
/** How long a scope is watched after a lasting change: twice the three weeks it has to be quiet again. */
const AFTER_LASTING_DAYS = 42

function argsOf(args: string[]): { seeds: number[]; kinds: EstateKind[]; verbose: boolean } {
  const seeds: number[] = []
  const kinds: EstateKind[] = []
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--seed') {
      const value = args[++i] ?? ''
      const range = /^(\d+)-(\d+)$/.exec(value)
      if (range) for (let s = Number(range[1]); s <= Number(range[2]); s++) seeds.push(s)
      else if (/^\d+$/.test(value)) seeds.push(Number(value))
      else throw new Error(`--seed takes a number or a range such as 11-15, got "${value}"`)
    } else if (args[i] === '--estate') {
      const value = args[++i] ?? ''
      const kind = ESTATE_KINDS.find((k) => k.name === value)
      if (!kind) throw new Error(`--estate takes one of ${ESTATE_KINDS.map((k) => k.name).join(', ')}, got "${value}"`)
      kinds.push(kind)
    } else if (args[i] !== '--verbose') {
      throw new Error('usage: npm run eval [-- --seed N | --seed 11-15 ...] [--estate NAME ...] [--verbose]')
    }
  }
  return {
    seeds: seeds.length ? seeds : Array.from({ length: 10 }, (_, i) => i + 1),
    kinds: kinds.length ? kinds : ESTATE_KINDS.filter((k) => k.standard !== false),
    verbose: args.includes('--verbose'),
  }
}

type ScopeKind = 'Tenant' | 'Subscription' | 'ResourceGroup' | 'Service' | 'Resource'
const SCOPE_KINDS: ScopeKind[] = ['Tenant', 'Subscription', 'ResourceGroup', 'Service', 'Resource']

interface Raised {
  id?: string
  scopeKey: string
  dateRaised: string
  expectedCost?: number
  actualCost?: number
  episodeEnd?: string | null
}

/** Counts that add up over seeds. */
interface Tally {
  labels: Record<string, number>
  found: Record<string, number>
  /** Per scope kind: anomalies, true ones, planted changes worth raising there and those raised there. */
  raised: Record<string, number>
  right: Record<string, number>
  due: Record<string, number>
  met: Record<string, number>
  anomalies: number
  falseAlarms: number
  seriesDays: number
  /** Per scope kind, the most days one scope raised anomalies after a lasting change, and how many exceeded the target. */
  worstAfter: Record<string, number>
  overAfter: number
  lastingScopes: number
  /** The feedback people would give, sent through the API, and the tenancy's counts it read back. */
  confirmed: number
  notAnAnomaly: number
  notes: string[]
}

interface Scored extends Tally {
  /** The ids of the anomalies no planted change explains. */
  falseAlarmIds: Set<string>
}

const dayDiff = (a: string, b: string) => Math.round((Date.parse(a) - Date.parse(b)) / 86_400_000)

/** The scope keys that contain a resource, by kind, as the analyser writes them. */
function scopesOf(estate: Estate, armId: string): Record<ScopeKind, string> {
  const res = estate.resources.find((r) => r.armId === armId)!
  return {
    Tenant: 'tenant',
    Subscription: `subscription:${res.subscriptionId}`,
    ResourceGroup: `resourceGroup:${res.subscriptionId}/${res.group.toLowerCase()}`,
    Service: `service:${res.service}`,
    Resource: `resource:${res.armId.toLowerCase()}`,
  }
}

const kindOfScope = (key: string): ScopeKind =>
  key === 'tenant'
    ? 'Tenant'
    : key.startsWith('subscription:')
      ? 'Subscription'
      : key.startsWith('resourceGroup:')
        ? 'ResourceGroup'
        : key.startsWith('service:')
          ? 'Service'
          : 'Resource'

const emptyTally = (): Tally => ({
  labels: {},
  found: {},
  raised: {},
  right: {},
  due: {},
  met: {},
  anomalies: 0,
  falseAlarms: 0,
  seriesDays: 0,
  worstAfter: {},
  overAfter: 0,
  lastingScopes: 0,
  confirmed: 0,
  notAnAnomaly: 0,
  notes: [],
})
const bump = (r: Record<string, number>, k: string, by = 1) => {
  r[k] = (r[k] ?? 0) + by
}

function score(estate: Estate, anomalies: Raised[]): Scored {
  const t: Scored = { ...emptyTally(), falseAlarmIds: new Set() }
  const n = estate.days.length
  const dayIndex = new Map(estate.days.map((d, i) => [d, i]))
  const scopesOfLabel = new Map(estate.labels.map((l) => [l, scopesOf(estate, l.armId)]))
  const removed = new Set(
    estate.labels.filter((l) => l.kind === 'removal').map((l) => `resource:${l.armId.toLowerCase()}`),
  )
  const decoys = new Set(estate.decoys.map((d) => `resource:${d.armId.toLowerCase()}`))
  /** The planted changes that explain an anomaly (none for a removed resource's own scope or a decoy's). */
  const explaining = (a: Raised): Label[] =>
    removed.has(a.scopeKey) || decoys.has(a.scopeKey)
      ? []
      : estate.labels.filter(
          (l) =>
            Math.abs(dayDiff(a.dateRaised, l.start)) <= 1 && Object.values(scopesOfLabel.get(l)!).includes(a.scopeKey),
        )
  const scopeCost = (scope: string, day: number) =>
    estate.resources
      .filter((r) => Object.values(scopesOf(estate, r.armId)).includes(scope))
      .reduce((sum, r) => sum + r.costs[day]!, 0)

  for (const a of anomalies) {
    const kind = kindOfScope(a.scopeKey)
    t.anomalies++
    bump(t.raised, kind)
    if (explaining(a).length) bump(t.right, kind)
    else {
      t.falseAlarms++
      if (a.id) t.falseAlarmIds.add(a.id)
      const near = estate.labels
        .filter((l) => Object.values(scopesOfLabel.get(l)!).includes(a.scopeKey))
        .filter((l) => Math.abs(dayDiff(a.dateRaised, l.start)) <= 35)
        .map((l) => `${l.kind} ${l.start}`)
      t.notes.push(
        `false alarm ${a.scopeKey.split('/').pop()} ${a.dateRaised}..${a.episodeEnd ?? ''} expected ${a.expectedCost} actual ${a.actualCost}${removed.has(a.scopeKey) ? ' (removed)' : ''}${near.length ? ` near ${near.join(', ')}` : ''}`,
      )
    }
  }
  for (const l of estate.labels) {
    const scopes = scopesOfLabel.get(l)!
    const start = dayIndex.get(l.start)!
    if ((FOUND_KINDS as readonly string[]).includes(l.kind)) {
      bump(t.labels, l.kind)
      const found = anomalies.some(
        (a) => a.scopeKey === scopes.Resource && Math.abs(dayDiff(a.dateRaised, l.start)) <= 1,
      )
      if (found) bump(t.found, l.kind)
      else t.notes.push(`missed ${l.kind} ${l.armId.split('/').pop()} ${l.start}`)
      for (const kind of SCOPE_KINDS) {
        const change = Math.abs(l.change ?? 0)
        const before = scopeCost(scopes[kind], start) - (l.change ?? 0)
        const worth =
          change >= 2 * DEFAULT_DETECTION.minImpact && change >= (2 * DEFAULT_DETECTION.minImpactPercent * before) / 100
        if (!worth) continue
        bump(t.due, kind)
        if (anomalies.some((a) => a.scopeKey === scopes[kind] && Math.abs(dayDiff(a.dateRaised, l.start)) <= 1))
          bump(t.met, kind)
      }
    }
    if (!LASTING_KINDS.includes(l.kind)) continue
    for (const kind of SCOPE_KINDS) {
      if (kind === 'Resource' && l.kind === 'removal') continue
      const days = new Set(
        anomalies
          .filter((a) => a.scopeKey === scopes[kind])
          .filter((a) => dayDiff(a.dateRaised, l.start) >= -1 && dayDiff(a.dateRaised, l.start) <= AFTER_LASTING_DAYS)
          .filter((a) => !explaining(a).some((other) => other !== l))
          .map((a) => a.dateRaised),
      )
      t.lastingScopes++
      t.worstAfter[kind] = Math.max(t.worstAfter[kind] ?? 0, days.size)
      if (days.size > TARGET_DAYS_AFTER_LASTING) {
        t.overAfter++
        t.notes.push(
          `${days.size} days alarmed on ${scopes[kind]} after ${l.kind} ${l.start}: ${[...days].sort().join(' ')}`,
        )
      }
    }
  }
  const scopes = new Set<string>()
  for (const r of estate.resources) for (const s of Object.values(scopesOf(estate, r.armId))) scopes.add(s)
  t.seriesDays = scopes.size * Math.max(0, n - DEFAULT_DETECTION.minHistoryDays)
  return t
}

function add(into: Tally, t: Tally): void {
  for (const k of ['labels', 'found', 'raised', 'right', 'due', 'met'] as const)
    for (const [key, v] of Object.entries(t[k])) bump(into[k], key, v)
  for (const [key, v] of Object.entries(t.worstAfter)) into.worstAfter[key] = Math.max(into.worstAfter[key] ?? 0, v)
  into.anomalies += t.anomalies
  into.falseAlarms += t.falseAlarms
  into.seriesDays += t.seriesDays
  into.overAfter += t.overAfter
  into.lastingScopes += t.lastingScopes
  into.confirmed += t.confirmed
  into.notAnAnomaly += t.notAnAnomaly
}

const f1 = (p: number, r: number) => (p + r === 0 ? 0 : (2 * p * r) / (p + r))
const ratio = (a: number, b: number) => (b === 0 ? Number.NaN : a / b)
const fixed = (x: number) => (Number.isNaN(x) ? '-' : x.toFixed(3))
const sumOf = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0)

function overall(t: Tally): { precision: number; recall: number; f1: number; per10k: number } {
  const precision = t.anomalies === 0 ? 1 : sumOf(t.right) / t.anomalies
  const recall = sumOf(t.labels) === 0 ? 1 : sumOf(t.found) / sumOf(t.labels)
  return { precision, recall, f1: f1(precision, recall), per10k: (10_000 * t.falseAlarms) / Math.max(1, t.seriesDays) }
}

function table(kind: EstateKind, t: Tally, seeds: number): string[] {
  const o = overall(t)
  const lines = [
    `${kind.name} (${kind.days} days, ${kind.currency}${kind.partialNewestDay ? ', partial newest day' : ''}${kind.lifecycle ? ', new and deleted resources' : ''}; ${seeds} seeds)`,
    `  all: anomalies ${t.anomalies}, false alarms ${t.falseAlarms} (${o.per10k.toFixed(2)} per 10,000 series-days), precision ${fixed(o.precision)} recall ${fixed(o.recall)} F1 ${fixed(o.f1)}`,
  ]
  for (const k of FOUND_KINDS) {
    if (!t.labels[k]) continue
    const recall = ratio(t.found[k] ?? 0, t.labels[k]!)
    lines.push(
      `  ${k.padEnd(13)} planted ${String(t.labels[k]).padStart(4)} found ${String(t.found[k] ?? 0).padStart(4)} recall ${fixed(recall)}`,
    )
  }
  for (const k of SCOPE_KINDS) {
    const precision = ratio(t.right[k] ?? 0, t.raised[k] ?? 0)
    const recall = ratio(t.met[k] ?? 0, t.due[k] ?? 0)
    lines.push(
      `  ${k.padEnd(13)} anomalies ${String(t.raised[k] ?? 0).padStart(4)} precision ${fixed(precision)} recall ${fixed(recall)} F1 ${fixed(f1(precision, recall))}; most days alarmed after a lasting change ${t.worstAfter[k] ?? 0}`,
    )
  }
  if (t.confirmed + t.notAnAnomaly > 0)
    lines.push(
      `  feedback through the API: ${t.confirmed} Confirmed, ${t.notAnAnomaly} NotAnAnomaly; precision in use ` +
        `(the tenancies' feedback counts) ${fixed(t.confirmed / (t.confirmed + t.notAnAnomaly))}`,
    )
  const verdict = kind.labelled
    ? `F1 ${fixed(o.f1)} >= ${TARGET_F1}: ${o.f1 >= TARGET_F1 ? 'met' : 'MISSED'}`
    : `anomalies per 10,000 series-days ${((10_000 * t.anomalies) / Math.max(1, t.seriesDays)).toFixed(2)} <= ${TARGET_CLEAN_PER_10K}: ${(10_000 * t.anomalies) / Math.max(1, t.seriesDays) <= TARGET_CLEAN_PER_10K ? 'met' : 'MISSED'}`
  const lasting = kind.labelled
    ? `; scopes alarming on more than ${TARGET_DAYS_AFTER_LASTING} days after a lasting change ${t.overAfter} of ${t.lastingScopes}: ${t.overAfter === 0 ? 'met' : 'MISSED'}`
    : ''
  lines.push(`  target: ${verdict}${lasting}`)
  return lines
}

// `npm run eval -- forecast`: the forecast's evaluation (eval/forecast.ts) instead of detection's.
if (process.argv[2] === 'forecast') {
  process.argv.splice(2, 1)
  await import('./forecast.js')
  process.exit(0)
}
const { seeds, kinds, verbose } = argsOf(process.argv.slice(2))
const report: string[] = []
let allMet = true
for (const kind of kinds) {
  const total = emptyTally()
  const started = performance.now()
  for (const seed of seeds) {
    const s = await evaluate(kind, seed)
    add(total, s)
    const o = overall(s)
    console.log(
      `${kind.name} seed ${seed}: anomalies ${s.anomalies}, false alarms ${s.falseAlarms}, planted ${sumOf(s.labels)}, found ${sumOf(s.found)}; precision ${fixed(o.precision)} recall ${fixed(o.recall)} F1 ${fixed(o.f1)}`,
    )
    if (verbose) for (const note of s.notes) console.log(`  ${note}`)
  }
  const lines = table(kind, total, seeds.length)
  lines[0] += ` in ${((performance.now() - started) / 1000).toFixed(0)} s`
  report.push(...lines)
  const o = overall(total)
  const clean = (10_000 * total.anomalies) / Math.max(1, total.seriesDays)
  allMet &&= kind.labelled ? o.f1 >= TARGET_F1 && total.overAfter === 0 : clean <= TARGET_CLEAN_PER_10K
}
console.log(`\n${report.join('\n')}\n\ntargets: ${allMet ? 'all met' : 'NOT all met'}`)

async function evaluate(kind: EstateKind, seed: number): Promise<Scored> {
  const dir = mkdtempSync(join(tmpdir(), `costwatch-eval-${seed}-`))
  try {
    const estate = generateEstate(seed, kind)
    const files = [...focusFiles(estate, kind.currency)].map(([month, text]) => {
      const file = join(dir, `focus-${month}.csv`)
      writeFileSync(file, text)
      return file
    })
    const env = { COSTWATCH_DATABASE_URL: join(dir, 'costwatch.db'), COSTWATCH_SECRET_KEY: SECRET }
    const clock = `${addDays(estate.days.at(-1)!, 1)}T06:00:00.000Z`
    const { tenantId, apiKey } = await withRuntime(env, clock, async (rt) => {
      const { owner, organisation, apiKey } = await rt.services.organisations.create({
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
      return { tenantId: tenant.id, apiKey }
    })

    const imported = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'src/main.ts', 'import', 'focus', '--tenant', tenantId, ...files],
      { cwd: ROOT, env: { ...process.env, ...env, COSTWATCH_LOG_LEVEL: 'warn' }, encoding: 'utf8' },
    )
    if (imported.status !== 0) throw new Error(`costwatch import focus failed:\n${imported.stderr}`)

    return await withRuntime(env, clock, async (rt, db) => {
      const worker = rt.worker({ log: () => {} })
      while (await worker.runOnce()) {}
      const [run] = await rt.services.analysisStore.ofTenant(tenantId)
      if (run?.status !== 'Succeeded') throw new Error(`the analysis run did not succeed: ${JSON.stringify(run)}`)
      const anomalies = await db.kysely
        .selectFrom('anomalies')
        .select(['id', 'scopeKey', 'dateRaised', 'expectedCost', 'actualCost', 'episodeEnd'])
        .where('tenantId', '=', tenantId)
        .execute()
      const scored = score(estate, anomalies)
      Object.assign(scored, await giveFeedback(rt, apiKey, tenantId, anomalies, scored.falseAlarmIds))
      return scored
    })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * Plays the people reviewing the anomalies: each false alarm marked NotAnAnomaly, each explained one Confirmed,
 * through the public API (PATCH /anomalies/{id}), then the tenancy's feedback counts read back
 * (GET /tenants/{id}/anomaly-feedback): the precision people see in use, which must be the precision scored here.
 */
async function giveFeedback(
  rt: Awaited<ReturnType<typeof createRuntime>>,
  apiKey: string,
  tenantId: string,
  anomalies: { id: string }[],
  falseAlarms: ReadonlySet<string>,
): Promise<{ confirmed: number; notAnAnomaly: number }> {
  const headers = { 'x-api-key': apiKey }
  for (const { id } of anomalies) {
    const res = await rt.app.inject({
      method: 'PATCH',
      url: `/api/public/v1/anomalies/${id}`,
      headers,
      payload: { feedback: falseAlarms.has(id) ? 'NotAnAnomaly' : 'Confirmed' },
    })
    if (res.statusCode !== 200) throw new Error(`feedback on ${id}: ${res.statusCode} ${res.body}`)
  }
  const counts = await rt.app.inject({
    method: 'GET',
    url: `/api/public/v1/tenants/${tenantId}/anomaly-feedback`,
    headers,
  })
  if (counts.statusCode !== 200) throw new Error(`feedback counts: ${counts.statusCode} ${counts.body}`)
  const {
    confirmed,
    notAnAnomaly,
    anomalies: total,
  } = counts.json() as {
    confirmed: number
    notAnAnomaly: number
    anomalies: number
  }
  if (total !== anomalies.length || confirmed + notAnAnomaly !== anomalies.length)
    throw new Error(
      `the feedback counts ${counts.body} do not add up to the ${anomalies.length} anomalies given feedback`,
    )
  return { confirmed, notAnAnomaly }
}

async function withRuntime<T>(
  env: Record<string, string>,
  now: string,
  work: (rt: Awaited<ReturnType<typeof createRuntime>>, db: ReturnType<typeof openDatabase>) => Promise<T>,
): Promise<T> {
  const config = loadConfig({
    ...env,
    COSTWATCH_CONNECTOR: 'simulated',
    COSTWATCH_LOG_LEVEL: 'silent',
    COSTWATCH_SNAPSHOT_HOUR: '23',
    // The reviewers' feedback is one request per anomaly, under a clock that stands still.
    COSTWATCH_RATE_LIMIT: '1000000',
  })
  const db = openDatabase(config.databaseUrl, { synchronous: config.sqliteSynchronous })
  await migrateToLatest(db)
  const rt = await createRuntime({ db, config, clock: fixedClock(now) })
  try {
    return await work(rt, db)
  } finally {
    await rt.app.close()
    await db.close()
  }
}
