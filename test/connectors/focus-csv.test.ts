import { parse as parseCsv } from 'csv-parse/sync'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createCsvReader } from '../../src/connectors/focus/csv.js'

/** Records as the FOCUS CSV reader gives them (a copy of each), and its errors, with `text` cut into `cuts`. */
function readAll(text: string, cuts: number[], keep?: number[]) {
  const records: { fields: string[]; line: number }[] = []
  const errors: { message: string; line: number }[] = []
  const reader = createCsvReader({
    onRecord: (fields, line) => records.push({ fields: [...fields], line }),
    onError: (message, line) => errors.push({ message, line }),
  })
  if (keep) reader.keepOnly(keep)
  let at = 0
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    reader.push(text.slice(at, Math.max(at, cut)))
    at = Math.max(at, cut)
  }
  reader.push(text.slice(at))
  reader.end()
  return { records, errors }
}

/** A field as a writer of CSV would put it: quoted (quotes doubled) when it holds a comma, quote or line break. */
const written = (field: string) => (/[",\r\n]/.test(field) ? `"${field.replaceAll('"', '""')}"` : field)

const fieldText = fc.stringMatching(/^[a-z ,"\n{}:]{0,12}$/)

describe('the FOCUS CSV reader', () => {
  it('reads any records csv-parse reads, the same, however the text is cut', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fieldText, { minLength: 3, maxLength: 3 }), { minLength: 1, maxLength: 8 }),
        fc.constantFrom('\n', '\r\n'),
        fc.array(fc.nat(), { maxLength: 6 }),
        (rows, eol, cutsAt) => {
          const text = rows.map((r) => r.map(written).join(',')).join(eol) + eol
          const expected: string[][] = parseCsv(text, { skip_empty_lines: true, relax_column_count: true })
          const cuts = cutsAt.map((c) => c % (text.length + 1))
          const { records, errors } = readAll(text, cuts)
          expect(errors).toEqual([])
          expect(records.map((r) => r.fields)).toEqual(expected)
        },
      ),
      { numRuns: 400 },
    )
  })

  it('undoubles the quotes of a field read again and again, and leaves fields not kept empty', () => {
    const tags = '"{""env"":""prod"",""team"":""a,b""}"'
    const text = `a,b,c\n1,${tags},"x ""y"""\n2,${tags},"x ""y"""\n3,"{""env"":""dev""}",z\n`
    const { records } = readAll(text, [17, 40], [0, 1])
    expect(records.map((r) => r.fields)).toEqual([
      ['a', 'b', ''],
      ['1', '{"env":"prod","team":"a,b"}', ''],
      ['2', '{"env":"prod","team":"a,b"}', ''],
      ['3', '{"env":"dev"}', ''],
    ])
    expect(records.map((r) => r.line)).toEqual([1, 2, 3, 4])
  })

  it('gives each record its own number of fields, a short one among long ones too', () => {
    const { records } = readAll('a,b,c\n1,2\n"3",4,5\n6\n', [])
    expect(records.map((r) => r.fields)).toEqual([['a', 'b', 'c'], ['1', '2'], ['3', '4', '5'], ['6']])
  })
})
