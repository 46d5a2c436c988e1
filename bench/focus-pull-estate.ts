/**
 * The estate of the focus-pull benchmark: `rows` FOCUS rows in AWS's "FOCUS 1.2 with AWS columns" set over 20
 * monthly billing periods, in the AWS Data Exports layout (`<export>/data/BILLING_PERIOD=YYYY-MM/<version>/…` and
 * `<export>/metadata/BILLING_PERIOD=YYYY-MM/<export name>-Manifest.json`), once as gzip CSV and once as Parquet,
 * stored by s3rver in a folder kept between runs (keyed by the row count), so a rerun does not write it again.
 *
 * Rows are generated one file at a time and streamed (CSV through gzip, Parquet one row group at a time), uploaded
 * and removed: memory does not grow with the estate. Each period also has a restated version (other costs, the same
 * rows), uploaded but named by no manifest until the benchmark restates it.
 */
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGzip } from 'node:zlib'
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3'
import { type ColumnSource, fileWriter, ParquetWriter, schemaFromColumnData } from 'hyparquet-writer'
import { PROVIDER_COLUMNS } from '../test/support/focus-providers.js'

export const BUCKET = 'billing'
export const EXPORT_NAME = 'focus-bench'
export const FORMATS = ['csv.gz', 'parquet'] as const
export type Format = (typeof FORMATS)[number]
export const PERIODS = 20
/** The first billing period; the 20 run to 2026-06. */
const FIRST = Date.UTC(2024, 10, 1)
/** Rows in one data file (AWS splits a period's export into files too). */
const FILE_ROWS = 250_000
/** Rows in one Parquet row group. */
const ROW_GROUP = 50_000
/** The versions of each period: the one the manifests name at first, and its restatement. */
export const VERSIONS = ['exec-1', 'exec-2'] as const
export type Version = (typeof VERSIONS)[number]
/** The period the benchmark restates (the only one with a second version): a month closed long ago. */
export const RESTATED = '2026-01'

const COLUMNS = PROVIDER_COLUMNS['aws-1.2']
const MONEY = new Set([
  'BilledCost',
  'EffectiveCost',
  'ListCost',
  'ContractedCost',
  'ListUnitPrice',
  'ContractedUnitPrice',
])
const DATES = new Set(['BillingPeriodStart', 'BillingPeriodEnd', 'ChargePeriodStart', 'ChargePeriodEnd'])
const col = (name: string) => {
  const i = COLUMNS.indexOf(name)
  if (i < 0) throw new Error(`no column ${name} in the AWS 1.2 set`)
  return i
}
const C = {
  chargeStart: col('ChargePeriodStart'),
  chargeEnd: col('ChargePeriodEnd'),
  billed: col('BilledCost'),
  effective: col('EffectiveCost'),
  list: col('ListCost'),
  contracted: col('ContractedCost'),
  listPrice: col('ListUnitPrice'),
  contractedPrice: col('ContractedUnitPrice'),
  pricingQuantity: col('PricingQuantity'),
  consumedQuantity: col('ConsumedQuantity'),
}

const DAY_MS = 86_400_000
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z')
const money = (n: number) => (Math.round(n * 1e6) / 1e6).toFixed(6)

export interface PeriodPlan {
  index: number
  period: string
  start: number
  days: number
  rows: number
  /** Resources a day: rows / days, rounded up (the last day has fewer). */
  resources: number
}

export function periodPlans(rows: number): PeriodPlan[] {
  const perPeriod = Math.floor(rows / PERIODS)
  return Array.from({ length: PERIODS }, (_, p) => {
    const start = Date.UTC(new Date(FIRST).getUTCFullYear(), new Date(FIRST).getUTCMonth() + p, 1)
    const end = Date.UTC(new Date(start).getUTCFullYear(), new Date(start).getUTCMonth() + 1, 1)
    const days = (end - start) / DAY_MS
    const count = p === PERIODS - 1 ? rows - perPeriod * (PERIODS - 1) : perPeriod
    return {
      index: p,
      period: new Date(start).toISOString().slice(0, 7),
      start,
      days,
      rows: count,
      resources: Math.ceil(count / days),
    }
  })
}

/** mulberry32, seeded by period and version: the same estate on every machine. */
function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const SERVICES = [
  [
    'Amazon Elastic Compute Cloud',
    'Compute',
    'Virtual Machines',
    'Instance',
    'EUW1-BoxUsage:m5.large',
    'AmazonEC2',
    'RunInstances',
  ],
  [
    'Amazon Simple Storage Service',
    'Storage',
    'Object Storage',
    'Bucket',
    'EUW1-TimedStorage-ByteHrs',
    'AmazonS3',
    'StandardStorage',
  ],
  [
    'Amazon Relational Database Service',
    'Databases',
    'Relational Databases',
    'DBInstance',
    'EUW1-InstanceUsage:db.r5.large',
    'AmazonRDS',
    'CreateDBInstance',
  ],
  ['AWS Lambda', 'Compute', 'Serverless Compute', 'Function', 'EUW1-Lambda-GB-Second', 'AWSLambda', 'Invoke'],
] as const
const ACCOUNTS = Array.from({ length: 20 }, (_, i) => String(111122220000 + i * 1111))

/** The cells of one resource in one period that do not change from day to day (null: none). */
function resourceCells(plan: PeriodPlan, i: number): (string | null)[] {
  const [service, category, subcategory, type, meter, code, operation] = SERVICES[i % SERVICES.length]!
  const account = ACCOUNTS[i % ACCOUNTS.length]!
  const end = Date.UTC(new Date(plan.start).getUTCFullYear(), new Date(plan.start).getUTCMonth() + 1, 1)
  const cells: Record<string, string> = {
    BillingAccountId: '999988887777',
    BillingAccountName: 'Example Org',
    BillingAccountType: 'Billing Account',
    BillingCurrency: 'USD',
    BillingPeriodStart: iso(plan.start),
    BillingPeriodEnd: iso(end),
    ChargeCategory: 'Usage',
    ChargeDescription: `${meter} usage`,
    ChargeFrequency: 'Usage-Based',
    ConsumedUnit: 'Hours',
    InvoiceId: `EUINGB${plan.period.replace('-', '')}`,
    InvoiceIssuerName: 'AWS',
    PricingCategory: 'Standard',
    PricingCurrency: 'USD',
    PricingUnit: 'Hours',
    ProviderName: 'AWS',
    PublisherName: 'AWS',
    RegionId: 'eu-west-1',
    RegionName: 'Europe (Ireland)',
    AvailabilityZone: 'eu-west-1a',
    ResourceId: `arn:aws:${code.toLowerCase()}:eu-west-1:${account}:${type.toLowerCase()}/r-${(0x100000 + i).toString(16)}`,
    ResourceName: `resource-${i}`,
    ResourceType: type,
    ServiceCategory: category,
    ServiceName: service,
    ServiceSubcategory: subcategory,
    SkuId: `SKU-${i % SERVICES.length}`,
    SkuMeter: meter,
    SkuPriceId: `SKU-${i % SERVICES.length}-PRICE`,
    SubAccountId: account,
    SubAccountName: `aws-account-${i % ACCOUNTS.length}`,
    SubAccountType: 'Account',
    Tags: JSON.stringify({ env: i % 2 === 0 ? 'prod' : 'dev', team: `team-${i % 7}` }),
    x_Operation: operation,
    x_ServiceCode: code,
    ...(i % 3 === 0 ? { x_Discounts: '{"bundled_discount":0.01}' } : {}),
  }
  return COLUMNS.map((c) => cells[c] ?? null)
}

const csvCell = (v: string | null) => (v === null ? '' : /[",\n\r]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v)

/**
 * The rows of one file of a period's version, row `from` to `to` of the period, as cell arrays (the same array
 * refilled for each row: use it before asking for the next). `sum` receives each row's EffectiveCost.
 */
function* fileRows(
  plan: PeriodPlan,
  version: Version,
  from: number,
  to: number,
  base: (string | null)[][],
  sum: (cost: number) => void,
): Generator<(string | null)[]> {
  const r = random((plan.index + 1) * 1_000_003 + VERSIONS.indexOf(version) * 7919 + from)
  // A restatement changes every cost a little: what the benchmark checks was replaced, not added.
  const factor = version === 'exec-1' ? 1 : 1.05
  let dayOf = -1
  let starts = ''
  let ends = ''
  for (let j = from; j < to; j++) {
    const day = Math.floor(j / plan.resources)
    if (day !== dayOf) {
      dayOf = day
      starts = iso(plan.start + day * DAY_MS)
      ends = iso(plan.start + (day + 1) * DAY_MS)
    }
    const cells = base[j % plan.resources]!
    const quantity = 1 + Math.floor(r() * 24)
    const price = 0.01 + Math.round(r() * 1000) / 10000
    const list = quantity * price
    const effective = Number(money(list * (0.7 + r() * 0.3) * factor))
    sum(effective)
    cells[C.chargeStart] = starts
    cells[C.chargeEnd] = ends
    cells[C.billed] = money(effective)
    cells[C.effective] = money(effective)
    cells[C.list] = money(list)
    cells[C.contracted] = money(list * 0.9)
    cells[C.listPrice] = money(price)
    cells[C.contractedPrice] = money(price * 0.9)
    cells[C.pricingQuantity] = String(quantity)
    cells[C.consumedQuantity] = String(quantity)
    yield cells
  }
}

async function writeCsvGz(path: string, rows: Generator<(string | null)[]>): Promise<void> {
  const header = `${COLUMNS.join(',')}\n`
  async function* chunks() {
    yield header
    let lines: string[] = []
    for (const cells of rows) {
      lines.push(cells.join(','))
      if (lines.length === 2000) {
        yield `${lines.join('\n')}\n`
        lines = []
      }
    }
    if (lines.length) yield `${lines.join('\n')}\n`
  }
  await pipeline(Readable.from(chunks()), createGzip({ level: 1 }), createWriteStream(path))
}

function writeParquet(path: string, rows: Generator<(string | null)[]>): void {
  const dates = new Map<string, Date>()
  const dateOf = (v: string) => {
    let d = dates.get(v)
    if (!d) {
      d = new Date(v)
      dates.set(v, d)
    }
    return d
  }
  const writer = fileWriter(path)
  let parquet: ParquetWriter | null = null
  const flush = (group: (string | null)[][]) => {
    const columnData: ColumnSource[] = COLUMNS.map((name, c) => {
      if (MONEY.has(name))
        return { name, type: 'DOUBLE', data: group.map((row) => (row[c] == null ? null : Number(row[c]))) }
      if (DATES.has(name))
        return { name, type: 'TIMESTAMP', data: group.map((row) => (row[c] == null ? null : dateOf(row[c]!))) }
      return { name, type: 'STRING', data: group.map((row) => row[c] ?? null) }
    })
    parquet ??= new ParquetWriter({ writer, schema: schemaFromColumnData({ columnData }) })
    parquet.write({ columnData, rowGroupSize: group.length })
  }
  let group: (string | null)[][] = []
  for (const cells of rows) {
    group.push([...cells])
    if (group.length === ROW_GROUP) {
      flush(group)
      group = []
    }
  }
  if (group.length) flush(group)
  ;(parquet as ParquetWriter | null)?.finish()
}

export interface EstatePeriod {
  period: string
  rows: number
  /** EffectiveCost summed, per version. */
  totals: Record<Version, number>
  /** Object keys of each version's files. */
  keys: Record<Version, string[]>
}

export interface Estate {
  rows: number
  /** The s3rver folder. */
  directory: string
  formats: Record<Format, { prefix: string; bytes: number; files: number; periods: EstatePeriod[] }>
  generatedSeconds: number
}

/** The folder the estate of `rows` rows is kept in, between runs. */
export function estateFolder(rows: number): string {
  return join(tmpdir(), `costwatch-bench-focus-pull-${rows}`)
}

/** Reads the estate kept from an earlier run, or null when there is none (or it was not finished). */
export function keptEstate(rows: number): Estate | null {
  const summary = join(estateFolder(rows), 'estate.json')
  return existsSync(summary) ? (JSON.parse(readFileSync(summary, 'utf8')) as Estate) : null
}

/** The folder s3rver serves (made empty when no finished estate is kept there). */
export function s3rverFolder(rows: number): string {
  const folder = estateFolder(rows)
  if (!keptEstate(rows)) rmSync(folder, { recursive: true, force: true })
  mkdirSync(join(folder, 's3'), { recursive: true })
  return join(folder, 's3')
}

export const prefixOf = (format: Format) => `${format === 'parquet' ? 'parquet' : 'csv'}/${EXPORT_NAME}`

/** Writes the estate through `s3` (s3rver serving s3rverFolder(rows)) and records it; `progress` gets a line a period. */
export async function writeEstate(s3: S3Client, rows: number, progress: (line: string) => void): Promise<Estate> {
  const started = performance.now()
  const staging = join(estateFolder(rows), 'staging')
  mkdirSync(staging, { recursive: true })
  const estate: Estate = {
    rows,
    directory: join(estateFolder(rows), 's3'),
    formats: {} as Estate['formats'],
    generatedSeconds: 0,
  }
  for (const format of FORMATS) {
    const prefix = prefixOf(format)
    const summary = { prefix, bytes: 0, files: 0, periods: [] as EstatePeriod[] }
    for (const plan of periodPlans(rows)) {
      // CSV cells are quoted once here: the cells that change from row to row never need it.
      const base = Array.from({ length: plan.resources }, (_, i) =>
        format === 'parquet' ? resourceCells(plan, i) : resourceCells(plan, i).map(csvCell),
      )
      const period: EstatePeriod = {
        period: plan.period,
        rows: plan.rows,
        totals: { 'exec-1': 0, 'exec-2': 0 },
        keys: { 'exec-1': [], 'exec-2': [] },
      }
      for (const version of VERSIONS) {
        if (version !== 'exec-1' && plan.period !== RESTATED) continue
        let total = 0
        for (let from = 0, n = 1; from < plan.rows; from += FILE_ROWS, n++) {
          const name = `${EXPORT_NAME}-${String(n).padStart(5, '0')}.${format === 'parquet' ? 'snappy.parquet' : 'csv.gz'}`
          const file = join(staging, name)
          const rowsOf = fileRows(plan, version, from, Math.min(plan.rows, from + FILE_ROWS), base, (c) => {
            total += c
          })
          if (format === 'parquet') writeParquet(file, rowsOf)
          else await writeCsvGz(file, rowsOf)
          const key = `${prefix}/data/BILLING_PERIOD=${plan.period}/${version}/${name}`
          const size = statSync(file).size
          // As bytes: a stream goes with the SDK's aws-chunked encoding, which s3rver stores as it comes.
          await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: readFileSync(file) }))
          rmSync(file)
          period.keys[version].push(key)
          if (version === 'exec-1') {
            summary.bytes += size
            summary.files++
          }
        }
        period.totals[version] = total
      }
      summary.periods.push(period)
      progress(
        `  ${format} ${plan.period}: ${plan.rows.toLocaleString('en-US')} rows, ` +
          `${((performance.now() - started) / 1000).toFixed(0)} s so far`,
      )
    }
    estate.formats[format] = summary
  }
  rmSync(staging, { recursive: true, force: true })
  estate.generatedSeconds = (performance.now() - started) / 1000
  await writeFile(join(estateFolder(rows), 'estate.json'), JSON.stringify(estate))
  return estate
}

/** Names `version` of a period in its manifest, as AWS does once a version's files are written. */
export async function publishManifest(s3: S3Client, format: Format, period: EstatePeriod, version: Version) {
  const prefix = prefixOf(format)
  const manifest = {
    executionId: version,
    billingPeriod: period.period,
    dataFiles: period.keys[version].map((key) => `s3://${BUCKET}/${key}`),
  }
  await s3.send(
    new PutObjectCommand({
      Bucket: BUCKET,
      Key: `${prefix}/metadata/BILLING_PERIOD=${period.period}/${EXPORT_NAME}-Manifest.json`,
      Body: JSON.stringify(manifest),
    }),
  )
}
