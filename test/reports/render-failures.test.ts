import { mkdtempSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ReportData, Row } from '../../src/features/reports/kinds/types.js'
import { RenderError, renderRun } from '../../src/features/reports/render/pipeline.js'

/** `count` rows of a cost-by-resource report, in batches of 2,000 as the cost store reads them. */
function data(count: number): ReportData {
  async function* rows(): AsyncGenerator<Row[]> {
    for (let start = 0; start < count; start += 2000) {
      const batch: Row[] = []
      for (let i = start; i < Math.min(count, start + 2000); i++)
        batch.push([`vm-${i}`, 'Microsoft.Compute/virtualMachines', 'rg-main', 'sub-a', (i % 500) / 4, 'USD'])
      yield batch
    }
  }
  return {
    columns: [
      { title: 'Resource', type: 'text', width: 32 },
      { title: 'Type', type: 'text', width: 30 },
      { title: 'Resource group', type: 'text', width: 24 },
      { title: 'Subscription', type: 'text', width: 38 },
      { title: 'Cost', type: 'money', width: 14 },
      { title: 'Currency', type: 'text', width: 9 },
    ],
    amountColumn: 4,
    currencyColumn: 5,
    rows: rows(),
  }
}

/** Renders `rows` rows with the file of `format` on a full disk (/dev/full: every write fails with ENOSPC). */
function renderOnFullDisk(format: 'csv' | 'xlsx', rows: number) {
  const dir = mkdtempSync(join(tmpdir(), 'costwatch-full-disk-'))
  symlinkSync('/dev/full', join(dir, `report.${format}`))
  return renderRun({
    data: data(rows),
    heading: {
      title: 'Cost by resource',
      subtitle: 'Cost by resource',
      description: null,
      period: { from: '2026-03-01', to: '2026-03-01', label: 'Month to date' },
      scope: 'Production',
      generatedAt: new Date('2026-03-01T09:00:00.000Z'),
    },
    series: [],
    dir,
  })
}

describe('a renderer whose file cannot be written', () => {
  for (const [format, rows] of [
    ['csv', 20_000],
    ['xlsx', 20_000], // fails while the rows stream
    ['xlsx', 3], // fails as the workbook is finished
  ] as const) {
    it(`fails the rendering, naming the ${format.toUpperCase()} file (${rows} rows), rather than hanging or crashing`, async () => {
      const failure = await renderOnFullDisk(format, rows).catch((err: unknown) => err)
      expect(failure).toBeInstanceOf(RenderError)
      expect(failure).toMatchObject({ format })
      expect((failure as Error).message).toMatch(
        new RegExp(`^The ${format.toUpperCase()} file could not be rendered: ENOSPC`),
      )
    })
  }
})
