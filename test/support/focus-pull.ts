import { parse } from 'csv-parse/sync'
import { expect } from 'vitest'
import type { OrgContext, TestApp } from './app.js'
import { costRowsOf } from './cost-rows.js'

const API = '/api/public/v1'

/** EffectiveCost (else BilledCost, as FOCUS says) summed per UTC day of ChargePeriodStart, from FOCUS rows' cells. */
export function costByDayOfRows(rows: Iterable<Record<string, string | null | undefined>>): Record<string, number> {
  const sums: Record<string, number> = {}
  for (const row of rows) {
    const day = new Date(Date.parse(row.ChargePeriodStart!)).toISOString().slice(0, 10)
    sums[day] = (sums[day] ?? 0) + Number(row.EffectiveCost || row.BilledCost)
  }
  return Object.fromEntries(Object.entries(sums).map(([day, sum]) => [day, Math.round(sum * 1e6) / 1e6]))
}

/** The same sums of FOCUS CSV files, read by a CSV parser of the test's own. */
export function costByDay(...files: (string | Buffer)[]): Record<string, number> {
  return costByDayOfRows(files.flatMap((file) => parse(file, { bom: true, columns: true }) as Record<string, string>[]))
}

/** A FOCUS CSV with every cost multiplied by `factor`, and the rows `keep` refuses left out: a restatement. */
export function restatedCsv(
  file: string | Buffer,
  factor: number,
  keep: (row: Record<string, string>) => boolean = () => true,
): string {
  const rows = parse(file, { bom: true, columns: true }) as Record<string, string>[]
  const columns = Object.keys(rows[0]!)
  const quote = (v: string) => (/[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v)
  const times = (v: string) => (v === '' ? '' : String(Number(v) * factor))
  const lines = rows
    .filter(keep)
    .map((r) => columns.map((c) => quote(c === 'EffectiveCost' || c === 'BilledCost' ? times(r[c]!) : r[c]!)).join(','))
  return `${columns.join(',')}\n${lines.join('\n')}\n`
}

/** The tenant's stored costs summed per day, rounded as costByDay rounds. */
export async function storedCostByDay(t: TestApp, tenantId: string): Promise<Record<string, number>> {
  const rows = await costRowsOf(t.db.kysely, tenantId)
    .select((eb) => ['date', eb.fn.sum<number>('cost').as('cost')])
    .groupBy('date')
    .orderBy('date')
    .execute()
  return Object.fromEntries(rows.map((r) => [r.date, Math.round(Number(r.cost) * 1e6) / 1e6]))
}

/**
 * A snapshot through the API, worker turns until it has run (another tenant's scheduled run may be claimed first),
 * and the run as the API then shows it; `workerOptions` are the worker's (see TestApp.worker).
 */
export async function snapshotNow(
  t: TestApp,
  org: OrgContext,
  tenantId: string,
  workerOptions?: Parameters<TestApp['worker']>[0],
) {
  const queued = await t.request('POST', `${API}/tenants/${tenantId}/snapshots`, org.ownerKey)
  expect(queued.statusCode, queued.body).toBe(202)
  const read = async () => (await t.request('GET', queued.headers.location as string, org.ownerKey)).json()
  let run = await read()
  while (run.status === 'Queued' && (await t.worker(workerOptions).runOnce())) run = await read()
  return run
}

/** A FOCUS CSV pushed to a tenant through the API, waited for until its import run is over; the run as then shown. */
export async function uploadAndWait(t: TestApp, org: OrgContext, tenantId: string, csv: string, fileName: string) {
  const upload = await t.request(
    'POST',
    `${API}/tenants/${tenantId}/cost-files?fileName=${encodeURIComponent(fileName)}`,
    org.ownerKey,
    csv,
    { 'content-type': 'text/csv' },
  )
  expect(upload.statusCode, upload.body).toBe(202)
  let run = upload.json()
  for (let i = 0; i < 400 && (run.status === 'Running' || run.status === 'Queued'); i++) {
    await new Promise((r) => setTimeout(r, 50))
    run = (await t.request('GET', upload.headers.location as string, org.ownerKey)).json()
  }
  return run
}
