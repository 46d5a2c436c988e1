import { ownCopy } from '../../platform/text.js'

/**
 * An RFC 4180 record reader for FOCUS exports, fed text chunk by chunk. It exists for speed: an Azure FocusCost
 * row has 96 columns and about 1.4 KB, and csv-parse read a 544,000-row estate (750 MB of CSV) at 16,000 rows/s
 * on its own, a third of the import's target; this reader finds field ends with `indexOf` and slices them out.
 *
 * It reads what csv-parse read with the options the importer used (comma, double quote, `""` inside quotes,
 * LF or CRLF, empty lines skipped, strict quoting) and reports the same kinds of error. Line numbers are
 * physical lines (a quoted field may hold line breaks), counted from 1.
 */

const COMMA = 0x2c
const QUOTE = 0x22
const CR = 0x0d
const LF = 0x0a

/** What `readRecord` returns for a record not all here yet, and for one that is not valid CSV. */
const INCOMPLETE = -1
const FAILED = -2

/** Distinct quoted texts with doubled quotes remembered at most (see `unescaped`). */
const UNDOUBLED_MAX = 4096

/** One record larger than this is refused rather than held in memory while its end is looked for. */
export const MAX_RECORD_CHARS = 16 * 1024 * 1024

/**
 * `onRecord` gets each record's fields in one array that the reader reuses: it is valid during the call only.
 */
export function createCsvReader(handlers: {
  onRecord: (fields: string[], line: number) => void
  onError: (message: string, line: number) => void
}) {
  const { onRecord, onError } = handlers
  // Written in place record after record (`count` of them this record): emptied and pushed anew, the array's
  // storage was given up and grown again for every record, 600 MB of garbage per 275,000 rows of 96 columns.
  const fields: string[] = []
  let count = 0
  let pending = ''
  let line = 1
  // Which fields are read (by position); the others are checked for valid CSV but left empty. Null: all.
  let keep: boolean[] | null = null
  const kept = (index: number) => keep === null || keep[index] === true
  // The next quote at or after a position of the text being read; -2: not looked for yet in this text. Kept
  // across records, so a file without quotes is not searched to the chunk's end once per record.
  let quoteAt = -2
  function quoteFrom(text: string, p: number): number {
    if (quoteAt === -2 || (quoteAt >= 0 && quoteAt < p)) quoteAt = text.indexOf('"', p)
    return quoteAt
  }

  /**
   * Reads every complete record of `text`; returns where the first incomplete one starts. At the
   * end of the input (`final`) an incomplete record is complete as it stands.
   */
  function readRecords(text: string, final: boolean): number {
    const length = text.length
    let pos = 0
    quoteAt = -2
    while (pos < length) {
      // Empty lines (LF or CRLF) are skipped, as csv-parse's skip_empty_lines does.
      const first = text.charCodeAt(pos)
      if (first === LF) {
        pos++
        line++
        continue
      }
      if (first === CR && (pos + 1 < length ? text.charCodeAt(pos + 1) === LF : final)) {
        pos += pos + 1 < length ? 2 : 1
        line++
        continue
      }
      const outcome = readRecord(text, pos, final)
      if (outcome === INCOMPLETE) return pos
      if (outcome === FAILED) {
        // Resume after the physical line where the error is (once that line is all here, so it is told once).
        const next = text.indexOf('\n', failedAt)
        if (next < 0 && !final) return pos
        onError(failure, line)
        line += 1 + countLineBreaks(text, pos, failedAt)
        pos = next < 0 ? length : next + 1
        continue
      }
      onRecord(fields, line)
      line += recordLines
      pos = outcome
    }
    return length
  }

  // How the last record read ended, kept here rather than in an object per record (544,000 of them).
  let recordLines = 0
  let failure = ''
  let failedAt = 0
  const done = (end: number, lines: number): number => {
    recordLines = lines
    if (fields.length !== count) fields.length = count
    return end
  }
  const fail = (error: string, at: number): number => {
    failure = error
    failedAt = at
    return FAILED
  }

  // Quoted texts with doubled quotes, as read: an export repeats the same few (a resource's Tags JSON, row after
  // row), and undoubling each anew made a new string per row (350 MB per 275,000 rows).
  const undoubled = new Map<string, string>()
  function unescaped(quoted: string): string {
    let text = undoubled.get(quoted)
    if (text === undefined) {
      text = quoted.replaceAll('""', '"')
      if (undoubled.size >= UNDOUBLED_MAX) undoubled.clear()
      undoubled.set(ownCopy(quoted), text)
    }
    return text
  }

  /**
   * One record from `start` into `fields`: where the next starts (its lines in `recordLines`), INCOMPLETE, or
   * FAILED (the error in `failure`, at `failedAt`).
   */
  function readRecord(text: string, start: number, final: boolean): number {
    const length = text.length
    count = 0
    let lineEnd = text.indexOf('\n', start)
    let breaks = 1
    let p = start
    for (;;) {
      if (p < length && text.charCodeAt(p) === QUOTE) {
        // A quoted field: up to the quote that is not doubled. Its text is cut out once, and only when kept.
        let from = p + 1
        let close: number
        let doubled = false
        for (;;) {
          close = text.indexOf('"', from)
          if (close < 0 || close + 1 >= length) {
            if (!final) return INCOMPLETE
            if (close < 0) return fail('Quote Not Closed: the parsing is finished with an opening quote', p)
            break
          }
          if (text.charCodeAt(close + 1) !== QUOTE) break
          doubled = true
          from = close + 2
        }
        breaks += countLineBreaks(text, p, close)
        if (kept(count)) {
          const value = text.slice(p + 1, close)
          fields[count++] = doubled ? unescaped(value) : value
        } else fields[count++] = ''
        const after = close + 1
        if (after > lineEnd && lineEnd >= 0) lineEnd = text.indexOf('\n', after)
        if (after >= length) return done(length, breaks)
        const c = text.charCodeAt(after)
        if (c === COMMA) {
          p = after + 1
          continue
        }
        if (c === LF) return done(after + 1, breaks)
        if (c === CR) {
          if (after + 1 >= length) return final ? done(length, breaks) : INCOMPLETE
          if (text.charCodeAt(after + 1) === LF) return done(after + 2, breaks)
        }
        return fail(
          `Invalid Closing Quote: got "${text[after]}" instead of delimiter, record delimiter or quote`,
          after,
        )
      }
      // An unquoted field: up to the next comma on this line.
      if (lineEnd < 0 && !final) return INCOMPLETE
      const end = lineEnd < 0 ? length : lineEnd
      let comma = text.indexOf(',', p)
      if (comma < 0 || comma > end) comma = -1
      const fieldEnd = comma < 0 ? end : comma
      const nextQuote = quoteFrom(text, p)
      if (nextQuote >= 0 && nextQuote < fieldEnd) {
        return fail(`Invalid Opening Quote: a quote is found in field ${count + 1} that is not quoted`, nextQuote)
      }
      if (comma >= 0) {
        fields[count] = kept(count) ? text.slice(p, comma) : ''
        count++
        p = comma + 1
        continue
      }
      // The last field; a CR before the LF ends the line too.
      const last = end > p && text.charCodeAt(end - 1) === CR ? end - 1 : end
      fields[count] = kept(count) ? text.slice(p, last) : ''
      count++
      return done(lineEnd < 0 ? length : lineEnd + 1, breaks)
    }
  }

  return {
    /** Reads the records that `chunk` completes. */
    push(chunk: string): void {
      // The record cut by the last chunk's end, completed by this chunk's first line on its own, then the rest of
      // the chunk as it is: reading `pending + chunk` first made V8 copy the two into one flat string, a chunk's
      // size (64 KB) every chunk. What that line leaves unread (a quoted line break) is read with the rest.
      const firstLine = pending === '' ? -1 : chunk.indexOf('\n')
      let text: string
      if (firstLine < 0) text = pending + chunk
      else {
        const head = pending + chunk.slice(0, firstLine + 1)
        const unread = head.slice(readRecords(head, false))
        text = unread === '' ? chunk.slice(firstLine + 1) : unread + chunk.slice(firstLine + 1)
      }
      const at = readRecords(text, false)
      pending = text.slice(at)
      if (pending.length > MAX_RECORD_CHARS) {
        // A record this long is a quote that is never closed: refuse it and go on after its first line.
        onError(`a record longer than ${MAX_RECORD_CHARS} characters (a quote not closed?)`, line)
        const next = pending.indexOf('\n')
        line++
        const rest = next < 0 ? '' : pending.slice(next + 1)
        pending = rest.slice(readRecords(rest, false))
      }
    },
    /** Reads what is left at the end of the input. */
    end(): void {
      readRecords(pending, true)
      pending = ''
    },
    /**
     * From now on, only the fields at these positions hold their text; the others are ''. A FOCUS export has 96
     * columns and the importer reads about 20: the rest are not copied out of the file's text.
     */
    keepOnly(positions: readonly number[]): void {
      keep = []
      for (const p of positions) if (p >= 0) keep[p] = true
    },
    /** The last physical line read so far. */
    lastLine: () => line - 1,
  }
}

/** Line breaks between `from` and `to` (a quoted field's own), LF or CRLF alike. */
function countLineBreaks(text: string, from: number, to: number): number {
  let n = 0
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++
  return n
}
