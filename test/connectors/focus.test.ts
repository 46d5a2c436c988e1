import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { parse as parseCsv } from 'csv-parse/sync'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import {
  armTypeOfArmId,
  isMoney,
  meterIdOf,
  moneyToNumber,
  normaliseSubscriptionId,
  parseInstant,
  parseMoney,
  parseTags,
  resourceGroupOfArmId,
} from '../../src/connectors/focus/fields.js'
import {
  createCostKeys,
  createFocusAggregator,
  parseFocusFile,
  parseFocusFiles,
} from '../../src/connectors/focus/parse.js'
import type { FocusParseResult } from '../../src/connectors/focus/types.js'
import { type DailyCostRow, toDailyCostRows } from '../../src/connectors/types.js'
import { toDay } from '../../src/platform/time.js'

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/focus/${name}`, import.meta.url))
const SMALL = fixture('azure-focus-small.csv')
const BAD = fixture('azure-focus-bad.csv')
const SAMPLE = fixture('finops-foundation-focus-1.0-sample.csv')
const SUB_A = '11111111-aaaa-4aaa-8aaa-111111111111'
const SUB_B = '22222222-bbbb-4bbb-8bbb-222222222222'

const temp = mkdtempSync(join(tmpdir(), 'costwatch-focus-'))
afterAll(() => rmSync(temp, { recursive: true, force: true }))
function tempFile(name: string, content: string | Buffer): string {
  const path = join(temp, name)
  writeFileSync(path, content)
  return path
}

/** Sums costs by a key, rounded to the cent, the way reports show them. */
function totals(costs: DailyCostRow[], keyOf: (c: DailyCostRow) => string): Record<string, number> {
  const sums: Record<string, number> = {}
  for (const c of costs) sums[keyOf(c)] = (sums[keyOf(c)] ?? 0) + c.cost
  return Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, Math.round(v * 100) / 100]))
}
const sum = (costs: DailyCostRow[]) => costs.reduce((s, c) => s + c.cost, 0)
const lastSegment = (c: DailyCostRow) => c.resourceArmId?.split('/').pop()

describe('FOCUS cell rules', () => {
  it('reads money exactly, including 28 significant digits, signs and exponents', () => {
    expect(parseMoney('0.2618755954811488071493712087')).toBe(26187559548114880715n) // 20 decimals kept, rounded
    expect(parseMoney('145.00000000000003000000')).toBe(14500000000000003000000n)
    expect(parseMoney('-0.1')).toBe(-10000000000000000000n)
    expect(parseMoney('1.5E-05')).toBe(1500000000000000n)
    expect(moneyToNumber(parseMoney('0.2618755954811488071493712087')!)).toBe(0.2618755954811488)
    // Back to a number, every amount is the double nearest to it, whichever way it is converted: up to 10 decimals
    // and under 2^53 of the 10th decimal by a division; more decimals, or larger, through its text.
    const amounts = ['0.1', '-0.3', '3.846318', '0.0000000001', '123456.7890123456', '90071.9925474099', '1e-11']
    amounts.push('90072.0000000001', '-987654321.123', '1234567890123.4567891', '0.00000000012345678901')
    let seed = 7
    const random = () => {
      seed = (seed * 48271) % 2147483647
      return seed / 2147483647
    }
    for (let i = 0; i < 2000; i++) {
      const digits = String(Math.floor(random() * 10 ** (1 + (i % 15))))
      const point = Math.floor(Math.random() * (digits.length + 1))
      amounts.push(`${i % 2 ? '-' : ''}${digits.slice(0, point) || '0'}.${digits.slice(point) || '0'}`)
    }
    // (+ 0: a zero has no sign in money.)
    for (const amount of amounts) expect(moneyToNumber(parseMoney(amount)!), amount).toBe(Number(amount) + 0)
    for (const bad of ['', 'abc', '1,5', '.', '1.2.3', 'NaN', 'Infinity']) expect(parseMoney(bad), bad).toBeNull()
    // The check of a BilledCost that is not used accepts what parseMoney reads, and only that.
    const texts = [
      '',
      ' ',
      '.',
      '-',
      '+.',
      '0',
      '-0.',
      '.5',
      '5.',
      ' 1.5E-05 ',
      '1e',
      '1e5',
      'e5',
      '.e5',
      '1.2.3',
      'abc',
    ]
    for (const text of texts) expect(isMoney(text), text).toBe(parseMoney(text) !== null)
  })

  it('reads any decimal the same, short or long, with or without a sign, a point or an exponent', () => {
    // The amount from the digits alone: sign, digits without the point, shifted to 20 decimals (rounded half up).
    const expected = (sign: string, whole: string, fraction: string, exponent: number) => {
      const digits = BigInt(`${whole}${fraction}` || '0')
      const shift = 20 + exponent - fraction.length
      const units =
        shift >= 0 ? digits * 10n ** BigInt(shift) : (digits + 10n ** BigInt(-shift) / 2n) / 10n ** BigInt(-shift)
      return sign === '-' ? -units : units
    }
    fc.assert(
      fc.property(
        fc.constantFrom('', '-', '+'),
        fc.stringMatching(/^\d{0,18}$/),
        fc.option(fc.stringMatching(/^\d{0,24}$/)),
        fc.option(fc.integer({ min: -30, max: 30 })),
        (sign, whole, fraction, exponent) => {
          const text = `${sign}${whole}${fraction === null ? '' : `.${fraction}`}${exponent === null ? '' : `e${exponent}`}`
          const readable = `${whole}${fraction ?? ''}` !== ''
          expect(parseMoney(text), text).toBe(readable ? expected(sign, whole, fraction ?? '', exponent ?? 0) : null)
          expect(isMoney(text), text).toBe(readable)
        },
      ),
      { numRuns: 2000 },
    )
  })

  it('takes the UTC day of ChargePeriodStart in the shapes Azure and the FinOps sample write', () => {
    const day = (text: string) => {
      const ms = parseInstant(text)
      return ms === null ? null : toDay(new Date(ms))
    }
    expect(day('2025-10-16T00:00:00Z')).toBe('2025-10-16')
    expect(day('2024-09-18 22:00:00')).toBe('2024-09-18') // no zone: UTC
    expect(day('2025-10-17T01:30:00+02:00')).toBe('2025-10-16')
    expect(day('2025-10-16T23:30:00.123-01:00')).toBe('2025-10-17')
    expect(day('2025-10-16')).toBe('2025-10-16')
    for (const bad of ['yesterday', '2025-02-30T00:00:00Z', '2025-10-16 25:00:00', '10/16/2025', '']) {
      expect(day(bad), bad).toBeNull()
    }
  })

  it('turns SubAccountId into the bare lower-case subscription GUID', () => {
    expect(normaliseSubscriptionId('/subscriptions/22222222-BBBB-4BBB-8BBB-222222222222')).toBe(SUB_B)
    expect(normaliseSubscriptionId('22222222-BBBB-4BBB-8BBB-222222222222')).toBe(SUB_B)
    expect(normaliseSubscriptionId('/SUBSCRIPTIONS/22222222-bbbb-4bbb-8bbb-222222222222/')).toBe(SUB_B)
    expect(normaliseSubscriptionId('51738928782')).toBe('51738928782') // an AWS account stays as written
  })

  it('reads Tags in each shape, keeping awkward keys and dropping non-scalar values', () => {
    expect(parseTags('{"env":"prod"}')).toEqual({ env: 'prod' })
    expect(parseTags('"env": "dev","cost-center": "42"')).toEqual({ env: 'dev', 'cost-center': '42' })
    expect(parseTags(JSON.stringify('{"env":"prod"}'))).toEqual({ env: 'prod' })
    expect(parseTags('{"org": "trey", " org": "trey", "n": 1, "b": true, "x": null, "o": {}}')).toEqual({
      org: 'trey',
      ' org': 'trey',
      n: '1',
      b: 'true',
    })
    expect(parseTags('')).toEqual({})
    expect(parseTags(null)).toEqual({})
    expect(parseTags('{"env":')).toBeNull()
    expect(parseTags('["env"]')).toBeNull()
  })

  it('picks the meter: x_SkuMeterId, else SkuPriceId, else SkuId with ChargeDescription', () => {
    const none = { x_SkuMeterId: null, SkuPriceId: null, SkuId: null, ChargeDescription: null, ChargeCategory: null }
    const all = {
      x_SkuMeterId: 'm-1',
      SkuPriceId: 'p-1',
      SkuId: 's-1',
      ChargeDescription: 'Queries',
      ChargeCategory: 'Usage',
    }
    expect(meterIdOf(all)).toBe('m-1')
    expect(meterIdOf({ ...all, x_SkuMeterId: null })).toBe('p-1')
    expect(meterIdOf({ ...all, x_SkuMeterId: null, SkuPriceId: null })).toBe('s-1|Queries')
    expect(meterIdOf({ ...all, x_SkuMeterId: null, SkuPriceId: null, ChargeDescription: 'Zones' })).toBe('s-1|Zones')
    expect(meterIdOf({ ...none, SkuId: 's-1' })).toBe('s-1')
    expect(meterIdOf({ ...none, ChargeCategory: 'Tax', ChargeDescription: 'VAT' })).toBe('Tax|VAT')
    expect(meterIdOf(none)).toBeNull()
  })

  it('reads resource group and ARM type out of a ResourceId', () => {
    const db = '/subscriptions/x/resourcegroups/Data-RG/providers/Microsoft.Sql/servers/sql-dev/databases/db1'
    expect(resourceGroupOfArmId(db)).toBe('Data-RG')
    expect(armTypeOfArmId(db)).toBe('microsoft.sql/servers/databases')
    expect(armTypeOfArmId('/subscriptions/x/resourceGroups/rg/providers/Microsoft.Web/serverFarms/p')).toBe(
      'microsoft.web/serverfarms',
    )
    expect(resourceGroupOfArmId('/subscriptions/x/providers/Microsoft.Capacity/reservations/r')).toBeNull()
    expect(resourceGroupOfArmId('arn:aws:sqs:us-west-2:123:queue')).toBeNull()
  })
})

describe('FOCUS import of the small Azure fixture', async () => {
  const r = await parseFocusFile(SMALL)

  it('reads every row without errors, in the billing currency', () => {
    expect(r.errors).toEqual([])
    expect(r.rowsRead).toBe(28)
    expect(r.rowsRejected).toBe(0)
    expect(r.currency).toBe('EUR')
    expect(r.currencies).toEqual(['EUR'])
    // The SQL database's last row has no EffectiveCost: BilledCost stands in, with a warning.
    expect(r.warnings).toEqual([
      { file: SMALL, line: 0, message: '1 row has no EffectiveCost; BilledCost was used instead' },
    ])
  })

  it('totals EffectiveCost exactly, per day, per subscription and overall', () => {
    expect(totals(r.costs, (c) => c.date)).toEqual({ '2025-10-15': 8.24, '2025-10-16': 33.83, '2025-10-17': 3.16 })
    expect(totals(r.costs, (c) => c.subscriptionId)).toEqual({ [SUB_A]: 43.73, [SUB_B]: 1.5 })
    expect(totals(r.costs, (c) => `${c.subscriptionId.slice(0, 1)} ${c.date}`)).toEqual({
      '1 2025-10-15': 4.5,
      '1 2025-10-16': 29.94,
      '1 2025-10-17': 9.29,
      '2 2025-10-15': 3.74,
      '2 2025-10-16': 3.89,
      '2 2025-10-17': -6.13,
    })
    expect(sum(r.costs)).toBeCloseTo(45.23298734978959, 12) // BilledCost would give 696.48
  })

  it('sums rows of the same resource, day, meter and charge category, and keeps amortised figures', () => {
    expect(r.costs).toHaveLength(27) // 28 rows, the VM's pair summed; usage and an adjustment kept apart
    const vm = r.costs.filter((c) => lastSegment(c) === 'vm-prod-1')
    // Reserved usage billed 0 but amortised 1.9178...; on 16 October an on-demand row of the same meter adds 0.45.
    expect(vm.map((c) => [c.date, c.cost])).toEqual([
      ['2025-10-15', 1.917808219178082],
      ['2025-10-16', 2.367808219178082],
      ['2025-10-17', 1.917808219178082],
    ])
    // 0.7412 usage and a -0.1 adjustment of the same meter and day: two rows, one per charge category.
    const storage = r.costs.filter((c) => lastSegment(c) === 'stdev01' && c.date === '2025-10-15')
    expect(storage.map((c) => [c.meterId, c.chargeCategory, c.chargeClass, c.cost])).toEqual([
      [storage[0]!.meterId, 'Usage', null, 0.7412],
      [storage[0]!.meterId, 'Adjustment', null, -0.1],
    ])
  })

  it('keeps meters apart that share a SkuId', () => {
    const meters = (name: string, date: string) =>
      r.costs.filter((c) => lastSegment(c) === name && c.date === date).map((c) => c.meterId)
    // DNS queries and zones: one SkuId, two x_SkuMeterIds.
    expect(meters('contoso.com', '2025-10-16')).toEqual([
      'a1c3f0e2-0000-4000-8000-000000000001',
      'a1c3f0e2-0000-4000-8000-000000000002',
    ])
    expect(meters('db1', '2025-10-16')).toEqual(['DZH318Z0BQPS/00F2/0001']) // no x_SkuMeterId: SkuPriceId
    expect(meters('kv-dev', '2025-10-16')).toEqual(['DZH318Z0BPQ5|Operations', 'DZH318Z0BPQ5|Advanced Key Operations'])
  })

  it('gives charges without a ResourceId to their subscription', () => {
    const unattached = r.costs.filter((c) => c.resourceArmId === null)
    expect(unattached.map((c) => [c.subscriptionId, c.date, c.meterId, c.serviceName, c.cost])).toEqual([
      [
        SUB_A,
        '2025-10-15',
        'DZH318Z0BPVV|Reserved VM Instance, Standard_D2s_v3, West Europe, 1 Year',
        'Virtual Machines',
        0,
      ],
      [SUB_A, '2025-10-16', 'contoso.fw-appliance/monthly', 'Marketplace', 25],
      [SUB_A, '2025-10-17', 'Tax|VAT', 'Tax', 4.75],
      [SUB_B, '2025-10-17', 'Credit|Azure Credit', 'Azure Credit', -10],
    ])
    expect(unattached.every((c) => c.resourceGroupName === null)).toBe(true)
    expect(unattached.map((c) => c.chargeCategory)).toEqual(['Purchase', 'Purchase', 'Tax', 'Credit'])
  })

  it('lists both subscriptions once, whatever the case of the GUID', () => {
    expect(r.subscriptions).toEqual([
      { subscriptionId: SUB_A, displayName: 'Contoso Production', state: 'Unknown', currency: 'EUR' },
      { subscriptionId: SUB_B, displayName: 'Contoso Dev', state: 'Unknown', currency: 'EUR' },
    ])
    const vault = r.costs.filter((c) => lastSegment(c) === 'kv-dev')
    expect(vault.every((c) => c.subscriptionId === SUB_B)).toBe(true)
  })

  it('matches resource-group names case-insensitively, keeping the first spelling', () => {
    expect(r.resourceGroups.map((g) => [g.subscriptionId, g.name, g.armId])).toEqual([
      [SUB_A, 'domains', `/subscriptions/${SUB_A}/resourceGroups/domains`],
      [SUB_A, 'web-prod', `/subscriptions/${SUB_A}/resourceGroups/web-prod`],
      [SUB_B, 'Data-RG', `/subscriptions/${SUB_B}/resourceGroups/Data-RG`],
      [SUB_B, 'shared', `/subscriptions/${SUB_B}/resourceGroups/shared`],
    ])
    const groupsOf = (name: string) =>
      new Set(r.costs.filter((c) => lastSegment(c) === name).map((c) => c.resourceGroupName))
    expect(groupsOf('contoso.com')).toEqual(new Set(['domains'])) // rows say domains and Domains
    expect(groupsOf('plan-prod')).toEqual(new Set(['web-prod'])) // Web-Prod, web-prod, WEB-PROD
    expect(groupsOf('stdev01')).toEqual(new Set(['Data-RG'])) // Data-RG, data-rg, DATA-RG
  })

  it('lists resources with their ARM type, region and the tags of their latest row', () => {
    expect(r.resources).toHaveLength(6)
    const vm = r.resources.find((x) => x.name === 'vm-prod-1')
    expect(vm).toEqual({
      armId: `/subscriptions/${SUB_A}/resourcegroups/web-prod/providers/microsoft.compute/virtualmachines/vm-prod-1`,
      name: 'vm-prod-1',
      resourceType: 'microsoft.compute/virtualmachines',
      location: 'westeurope',
      subscriptionId: SUB_A,
      resourceGroupName: 'web-prod',
      tags: { env: 'prod', team: 'platform', owner: 'ana' },
      // The charge period of the row the tags came from (the latest).
      tagsSeenAt: expect.stringMatching(/^2025-10-\d\dT00:00:00\.000Z$/),
      sku: null,
      state: null,
      properties: {},
    })
    expect(r.resources.find((x) => x.name === 'db1')?.resourceType).toBe('microsoft.sql/servers/databases')
    expect(r.resources.find((x) => x.name === 'db1')?.resourceGroupName).toBe('Data-RG')
    // The storage account's latest row has empty Tags: it has none now.
    expect(r.resources.find((x) => x.name === 'stdev01')?.tags).toEqual({})
  })

  it('writes one complete cost row per key', () => {
    expect(r.costs.find((c) => lastSegment(c) === 'stdev01' && c.meterId.endsWith('006'))).toEqual({
      date: '2025-10-16',
      subscriptionId: SUB_B,
      resourceArmId: `/subscriptions/${SUB_B}/resourcegroups/data-rg/providers/microsoft.storage/storageaccounts/stdev01`,
      resourceGroupName: 'Data-RG',
      meterId: 'd4f6a8b0-0000-4000-8000-000000000006',
      meterName: 'LRS Write Operations',
      chargeCategory: 'Usage',
      chargeClass: null,
      serviceName: 'Storage',
      cost: 0.0043,
      currency: 'EUR',
      // The fixture has no BillingPeriodStart: the month of ChargePeriodStart.
      billingPeriod: '2025-10',
    })
  })
})

describe('FOCUS aggregators that share their keys (one reader thread, file after file)', () => {
  it('give the rows of one key the same object in every file, each aggregator summing its own file', async () => {
    const alone = await parseFocusFile(SMALL)
    const costKeys = createCostKeys()
    // The first stops before its costs are taken (a file that failed): the next one starts its sums anew.
    const failed = createFocusAggregator({ costKeys })
    await failed.addFile(SMALL)
    const first = createFocusAggregator({ costKeys })
    await first.addFile(SMALL)
    const firstRows = first.takeCosts()
    const second = createFocusAggregator({ costKeys })
    await second.addFile(SMALL)
    const secondRows = second.takeCosts()
    for (const rows of [firstRows, secondRows]) {
      expect(sum(toDailyCostRows(rows))).toBeCloseTo(sum(alone.costs), 9)
      expect(toDailyCostRows(rows)).toHaveLength(alone.costs.length)
    }
    expect(secondRows.keys).toEqual(firstRows.keys)
    expect(secondRows.keys.every((key, i) => key === firstRows.keys[i])).toBe(true)
  })
})

describe('FOCUS import of gzip files', () => {
  const plain = readFileSync(SMALL)
  const same = (a: FocusParseResult, b: FocusParseResult) => expect(a).toEqual(b)

  it('reads gzip by its magic number, whatever the file is called', async () => {
    const expected = await parseFocusFile(SMALL, { fileName: 'export' })
    for (const path of [tempFile('export.csv.gz', gzipSync(plain)), tempFile('export.csv', gzipSync(plain))]) {
      same(await parseFocusFile(path, { fileName: 'export' }), expected)
    }
    same(await parseFocusFile(tempFile('plain.csv.gz', plain), { fileName: 'export' }), expected) // misnamed plain CSV
  })

  it('reads a stream that arrives a byte at a time at first', async () => {
    const expected = await parseFocusFile(SMALL, { fileName: 'export' })
    const zipped = gzipSync(plain)
    const chunks = [...[...zipped.subarray(0, 5)].map((b) => Buffer.from([b])), zipped.subarray(5)]
    same(await parseFocusFile(Readable.from(chunks), { fileName: 'export' }), expected)
  })

  it('reads the same whatever the chunks, a record, a quoted field or a CRLF cut anywhere', async () => {
    for (const text of [readFileSync(BAD, 'utf8'), readFileSync(BAD, 'utf8').replace(/\n/g, '\r\n')]) {
      const whole = await parseFocusFile(Readable.from([Buffer.from(text)]), { fileName: 'bad' })
      const bytes = Buffer.from(text)
      for (const size of [1, 2, 7, 64]) {
        const chunks: Buffer[] = []
        for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size))
        same(await parseFocusFile(Readable.from(chunks), { fileName: 'bad' }), whole)
      }
    }
  })

  it('reads characters beyond ASCII whole wherever a chunk ends, and keeps a U+FEFF inside a field', async () => {
    // A broken sequence too (a lone lead byte before ASCII): its U+FFFD lands where it was, however cut.
    const [before, after] = readFileSync(SMALL, 'utf8')
      .replaceAll('{""env"":""prod""}', '{""env"":""prod"",""owner"":""Zoë Müller"",""team"":""日本\uFEFF🚀@""}')
      .split('@')
    const bytes = Buffer.concat([Buffer.from(before!), Buffer.from([0xc3]), Buffer.from(after!.replaceAll('@', ''))])
    const whole = await parseFocusFile(Readable.from([bytes]), { fileName: 'utf8' })
    const tagged = whole.resources.find((r) => r.tags.owner === 'Zoë Müller')!
    expect(tagged.tags).toEqual({ env: 'prod', owner: 'Zoë Müller', team: '日本\uFEFF🚀\uFFFD' })
    for (const size of [1, 2, 3, 5, 64, 4096]) {
      const chunks: Buffer[] = []
      for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size))
      same(await parseFocusFile(Readable.from(chunks), { fileName: 'utf8' }), whole)
    }
  })

  it('sums the files of one import', async () => {
    const r = await parseFocusFiles([SMALL, tempFile('part2.csv', gzipSync(plain))])
    expect(r.rowsRead).toBe(56)
    expect(r.costs).toHaveLength(27)
    expect(sum(r.costs)).toBeCloseTo(2 * 45.23298734978959, 12)
  })

  it('reports a truncated gzip file', async () => {
    const zipped = gzipSync(plain)
    const r = await parseFocusFile(tempFile('cut.csv.gz', zipped.subarray(0, zipped.length - 400)), { fileName: 'cut' })
    expect(r.errors.at(-1)).toMatchObject({ file: 'cut', message: expect.stringMatching(/ends early or is corrupt/) })
  })
})

describe('FOCUS import of the bad fixture', () => {
  const errorLines = [3, 4, 5, 6, 10, 12, 14, 15, 16, 17, 19]

  it('reports each bad row at its physical line, after a multi-line field too', async () => {
    const r = await parseFocusFile(BAD)
    expect(r.errors.map((e) => [e.line, e.message])).toEqual([
      [3, 'ChargePeriodStart is missing'],
      [4, 'ChargePeriodStart "yesterday" is not a date-time'],
      [5, 'EffectiveCost "abc" is not a number'],
      [6, 'BillingCurrency is missing'],
      [10, 'ChargePeriodStart "2025-02-30T00:00:00Z" is not a date-time'],
      [12, 'expected 26 fields as in the header, found 3'],
      [14, 'SubAccountId is missing'],
      [15, 'EffectiveCost and BilledCost are both missing'],
      [16, expect.stringMatching(/^not valid CSV: Invalid Opening Quote/)],
      [17, expect.stringMatching(/^billing currency USD differs from EUR \(first seen in .* line 2\)/)],
      [
        19,
        'ChargePeriodStart "2025-10-16 25:00:00" is not a date-time; EffectiveCost "1,5" is not a number; BilledCost "1,5" is not a number',
      ],
    ])
    expect(r.errors.every((e) => e.file === BAD)).toBe(true)
    expect(r.warnings).toEqual([
      { file: BAD, line: 13, message: 'Tags is not a JSON object; the row is kept without tags' },
    ])
    expect(r.rowsRead).toBe(16)
    expect(r.rowsRejected).toBe(10)
  })

  it('keeps the good rows, never adding one currency to another', async () => {
    const r = await parseFocusFile(BAD)
    expect(r.currency).toBeNull()
    expect(r.currencies).toEqual(['EUR', 'USD'])
    expect(totals(r.costs, (c) => c.currency)).toEqual({ EUR: 17, USD: 4 }) // lines 2, 7, 13, 18, 20 and 17
    expect(r.costs.find((c) => c.cost === 2)?.meterName).toBe('D2s v3')
  })

  it('counts lines the same in a CRLF file, inside quoted fields too', async () => {
    const crlf = tempFile('bad-crlf.csv', readFileSync(BAD, 'utf8').replace(/\n/g, '\r\n'))
    const r = await parseFocusFile(crlf)
    expect(r.errors.map((e) => e.line)).toEqual(errorLines)
    expect(r.warnings.map((e) => e.line)).toEqual([13])
  })

  it('keeps only the first issues of a huge broken file, counting the rest', async () => {
    const r = await parseFocusFile(BAD, { maxIssues: 2 })
    expect(r.errors.map((e) => e.line)).toEqual([3, 4])
    expect(r.errorCount).toBe(11)
  })
})

describe('FOCUS file-level errors', () => {
  const row = '1.00,EUR,2025-10-16T00:00:00Z,/subscriptions/x,,Storage,s-1'

  it('names the missing required columns at line 1 and reads nothing', async () => {
    const path = tempFile('no-date.csv', `BilledCost,BillingCurrency,SubAccountId,Tags\n1.00,EUR,/subscriptions/x,\n`)
    const r = await parseFocusFile(path, { fileName: 'no-date.csv' })
    expect(r.errors).toEqual([
      {
        file: 'no-date.csv',
        line: 1,
        message:
          'not a FOCUS cost export: missing columns ChargePeriodStart, ResourceId, ServiceName, x_SkuMeterId or SkuPriceId or SkuId',
      },
    ])
    expect(r.rowsRead).toBe(0)
    expect(r.costs).toEqual([])
  })

  it('does not lose the first column to a byte order mark', async () => {
    const header = 'BilledCost,BillingCurrency,ChargePeriodStart,SubAccountId,ResourceId,ServiceName,SkuId'
    const r = await parseFocusFile(tempFile('bom.csv', `\uFEFF${header}\n${row}\n`))
    expect(r.errors).toEqual([])
    expect(r.costs.map((c) => c.cost)).toEqual([1])
  })

  it('accepts the full header of an Azure FocusCost 1.0 export', async () => {
    const columns = readFileSync(fixture('azure-focuscost-1.0-columns.txt'), 'utf8').trim().split('\n')
    expect(columns).toHaveLength(96)
    const values: Record<string, string> = {
      BilledCost: '0.5',
      EffectiveCost: '0.25',
      BillingCurrency: 'EUR',
      ChargePeriodStart: '2025-10-16T00:00:00Z',
      SubAccountId: `/subscriptions/${SUB_A}`,
      ServiceName: 'Storage',
      x_SkuMeterId: 'm-1',
    }
    const line = columns.map((c) => values[c] ?? '').join(',')
    const r = await parseFocusFile(Readable.from([`\uFEFF${columns.join(',')}\n${line}\n`]), { fileName: 'full' })
    expect(r.errors).toEqual([])
    expect(r.costs).toMatchObject([{ subscriptionId: SUB_A, meterId: 'm-1', cost: 0.25, resourceArmId: null }])
  })

  it('reports an empty file, a missing file and formats it cannot read', async () => {
    expect((await parseFocusFile(tempFile('empty.csv', ''), { fileName: 'e' })).errors).toEqual([
      { file: 'e', line: 1, message: 'the file is empty' },
    ])
    const missing = await parseFocusFile(join(temp, 'nope.csv'))
    expect(missing.errors).toMatchObject([{ line: 0, message: expect.stringMatching(/^cannot read the file: ENOENT/) }])
    const zip = await parseFocusFile(tempFile('x.zip', Buffer.from('PK\x03\x04rest', 'latin1')))
    expect(zip.errors).toMatchObject([{ line: 0, message: 'cannot read the file: a zip archive; unzip it first' }])
  })

  it('reports a header that is not valid CSV', async () => {
    const r = await parseFocusFile(tempFile('broken-header.csv', `Billed"Cost,BillingCurrency\n${row}\n`))
    expect(r.errors).toMatchObject([{ line: 1, message: expect.stringMatching(/^the header is not valid CSV/) }])
    expect(r.rowsRead).toBe(0)
  })
})

describe('FOCUS import of the FinOps Foundation sample', async () => {
  const r = await parseFocusFile(SAMPLE)
  // The independent reading: csv-parse records, the bare word NULL as null, plain sums.
  const records: Record<string, string>[] = parseCsv(readFileSync(SAMPLE), { columns: true })
  const value = (v: string | undefined) => (v === undefined || v === 'NULL' || v === '' ? null : v)

  it('parses all 1,000 rows without errors', () => {
    expect(records).toHaveLength(1000)
    expect(r.errors).toEqual([])
    expect(r.warnings).toEqual([])
    expect(r.rowsRead).toBe(1000)
    expect(r.currency).toBe('USD')
  })

  it('totals EffectiveCost as a plain sum of the column does, overall and per UTC day', () => {
    const total = records.reduce((s, x) => s + Number(x.EffectiveCost), 0)
    expect(sum(r.costs)).toBeCloseTo(total, 9)
    expect(Math.round(sum(r.costs) * 100) / 100).toBe(14.98) // BilledCost totals 20.52
    const byDay: Record<string, number> = {}
    for (const x of records) {
      const day = x.ChargePeriodStart!.slice(0, 10)
      byDay[day] = (byDay[day] ?? 0) + Number(x.EffectiveCost)
    }
    const days = [...new Set(r.costs.map((c) => c.date))].sort()
    expect(days).toEqual(Object.keys(byDay).sort())
    for (const day of days) expect(sum(r.costs.filter((c) => c.date === day)), day).toBeCloseTo(byDay[day]!, 9)
  })

  it('gives rows without ResourceId to their sub-account', () => {
    const unattached = records.filter((x) => value(x.ResourceId) === null)
    expect(unattached).toHaveLength(75)
    const expected = unattached.reduce((s, x) => s + Number(x.EffectiveCost), 0)
    expect(sum(r.costs.filter((c) => c.resourceArmId === null))).toBeCloseTo(expected, 9)
  })

  it("finds the resource groups inside Microsoft ResourceIds, lists the other clouds' resources without one, and keeps awkward tag keys", () => {
    const ids = new Set(records.flatMap((x) => value(x.ResourceId)?.toLowerCase() ?? []))
    const inGroups = [...ids].filter((id) => id.startsWith('/subscriptions/') && id.includes('/resourcegroups/'))
    expect(inGroups.length).toBeGreaterThan(0)
    expect(inGroups.length).toBeLessThan(ids.size)
    expect(r.resources.map((x) => x.armId.toLowerCase()).sort()).toEqual([...ids].sort())
    expect(r.resourceGroups.length).toBeGreaterThan(0)
    for (const resource of r.resources) {
      const grouped = inGroups.includes(resource.armId.toLowerCase())
      expect(resource.resourceGroupName === null, resource.armId).toBe(!grouped)
      expect(resource.resourceGroupName, resource.armId).not.toBe('')
    }
    const tagged = r.resources.find((x) => ' org' in x.tags)
    expect(tagged?.tags).toMatchObject({ org: 'trey', ' org': 'trey' })
  })
})
