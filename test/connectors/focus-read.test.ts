import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import { parseFocusFiles } from '../../src/connectors/focus/parse.js'
import { type FocusReadProgress, readFocusFiles } from '../../src/connectors/focus/read.js'
import type { FocusParseResult } from '../../src/connectors/focus/types.js'
import { type DailyCostRow, toDailyCostRows } from '../../src/connectors/types.js'

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/focus/${name}`, import.meta.url))
const SMALL = readFileSync(fixture('azure-focus-small.csv'), 'utf8')
const BAD = fixture('azure-focus-bad.csv')

const temp = mkdtempSync(join(tmpdir(), 'costwatch-focus-read-'))
afterAll(() => rmSync(temp, { recursive: true, force: true }))
function tempFile(name: string, content: string | Buffer): string {
  const path = join(temp, name)
  writeFileSync(path, content)
  return path
}

const [header, ...rows] = SMALL.trimEnd().split('\n')
/**
 * Files whose order matters: the first is the largest (so a later one is read first), the group `domains` is
 * spelled otherwise later, a resource's tags change at the same ChargePeriodStart in a later file (the later row
 * wins), a second file has bad rows and a second currency, a fourth a third currency, a fifth does not exist.
 */
const files = [
  tempFile('large.csv', `${header}\n${Array.from({ length: 400 }, () => rows.join('\n')).join('\n')}\n`),
  BAD,
  tempFile('small.csv.gz', gzipSync(SMALL)),
  tempFile(
    'respelled.csv',
    SMALL.replaceAll(',domains,', ',DOMAINS,')
      .replaceAll('{""env"":""prod""}', '{""env"":""staging""}')
      .replaceAll(',EUR,', ',GBP,'),
  ),
  join(temp, 'missing.csv'),
]

/**
 * Costs summed by everything but the cost (batches may split a key's rows, and a file read on its own names a
 * group in its own spelling: whoever stores the rows keys them by the group's name in lower case).
 */
function summed(costs: readonly DailyCostRow[]): Map<string, number> {
  const sums = new Map<string, number>()
  for (const { cost, ...key } of costs) {
    const k = JSON.stringify({ ...key, resourceGroupName: key.resourceGroupName?.toLowerCase() })
    sums.set(k, (sums.get(k) ?? 0) + cost)
  }
  return sums
}

function expectSameCosts(actual: readonly DailyCostRow[], expected: readonly DailyCostRow[]) {
  const a = summed(actual)
  const e = summed(expected)
  expect([...a.keys()].sort()).toEqual([...e.keys()].sort())
  for (const [key, cost] of e) expect(a.get(key)).toBeCloseTo(cost, 9)
}

async function readSideBySide(maxIssues?: number) {
  const costs: DailyCostRow[] = []
  const progress: FocusReadProgress[] = []
  const result = await readFocusFiles(files, {
    batchRows: 3,
    progressRows: 1000,
    maxIssues,
    onCosts: async (batch) => {
      costs.push(...toDailyCostRows(batch))
      await new Promise((resume) => setImmediate(resume))
    },
    onProgress: (p) => {
      progress.push(p)
    },
  })
  return { result, costs, progress }
}

const withoutCosts = ({ costs: _, ...rest }: FocusParseResult) => rest

describe('reading the files of an import side by side', () => {
  it('gives what reading them one after another gives: inventory, issues with file and line, and costs', async () => {
    const serial = await parseFocusFiles(files)
    const { result, costs } = await readSideBySide()
    expect(serial.errors.map((e) => e.message)).toContain(
      `billing currency GBP differs from EUR (first seen in ${files[0]} line 2); an import should hold one currency: ` +
        'costs are kept per currency and never added across them',
    )
    expect(serial.resourceGroups.filter((g) => g.name.toLowerCase() === 'domains').map((g) => g.name)).toEqual([
      'domains',
    ])
    expect(serial.resources.some((r) => r.tags.env === 'staging')).toBe(true)
    expect(withoutCosts(result)).toEqual(withoutCosts(serial))
    expect(result.costs).toEqual([])
    expectSameCosts(costs, serial.costs)
  })

  it('keeps the same first issues when there are more than it keeps', async () => {
    const serial = await parseFocusFiles(files, { maxIssues: 3 })
    const { result } = await readSideBySide(3)
    expect(result.errors).toHaveLength(3)
    expect(result.errors).toEqual(serial.errors)
    expect(result.errorCount).toBe(serial.errorCount)
  })

  it('tells its progress file by file, in order, up to every row', async () => {
    const { result, progress } = await readSideBySide()
    const ends = progress.filter((p) => p.fileRead)
    expect(ends.map((p) => [p.fileNumber, p.file])).toEqual(files.map((file, i) => [i + 1, file]))
    expect(ends.at(-1)!.rowsRead).toBe(result.rowsRead)
    const numbers = progress.map((p) => p.fileNumber)
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b))
    const counts = progress.map((p) => p.rowsRead)
    expect(counts).toEqual([...counts].sort((a, b) => a - b))
  })

  it('reads ahead of `after` in one reader, handing nothing over before it settles, with the same result', async () => {
    const serial = await parseFocusFiles(files)
    let open = () => {}
    const costs: DailyCostRow[] = []
    let progressCalls = 0
    const reading = readFocusFiles(files, {
      batchRows: 3,
      progressRows: 1000,
      after: new Promise<void>((resolve) => (open = resolve)),
      onCosts: async (batch) => {
        costs.push(...toDailyCostRows(batch))
      },
      onProgress: () => {
        progressCalls++
      },
    })
    // Time enough for the reader to read every file (a few thousand rows).
    await new Promise((resume) => setTimeout(resume, 500))
    expect([costs.length, progressCalls]).toEqual([0, 0])
    open()
    const result = await reading
    expect(withoutCosts(result)).toEqual(withoutCosts(serial))
    expectSameCosts(costs, serial.costs)
  })

  it('stops with the error of `after` when it rejects, storing nothing', async () => {
    let stored = 0
    const reading = readFocusFiles(files, {
      batchRows: 3,
      progressRows: 1000,
      after: new Promise((_, reject) => setTimeout(() => reject(new Error('the last step failed')), 50)),
      onCosts: async () => {
        stored++
      },
    })
    await expect(reading).rejects.toThrow('the last step failed')
    expect(stored).toBe(0)
  })

  it('fails with the error of whoever stores the rows, and stops reading', async () => {
    let calls = 0
    const failing = readFocusFiles(files, {
      batchRows: 3,
      progressRows: 1000,
      onCosts: async () => {
        if (++calls === 5) throw new Error('disk full')
      },
    })
    await expect(failing).rejects.toThrow('disk full')
    expect(calls).toBe(5)
  })
})
