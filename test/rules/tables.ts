/**
 * Finds the tables a source file names: Kysely's builders (`selectFrom('costSeries as s')`, the joins, `insertInto`,
 * `updateTable`, `deleteFrom`, `sql.table`) and raw SQL in templates and strings (`delete from cost_series`).
 * Used by tables.test.ts, which checks that each table is named only by its owner's files.
 */

/** `costSeries` -> `cost_series`, as the Kysely plugin maps names for the database. */
export const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

/** The text without its comments, strings and templates kept (a `//` inside a string is not a comment). */
export function withoutComments(text: string): string {
  let out = ''
  let i = 0
  while (i < text.length) {
    const c = text[i]!
    const next = text[i + 1]
    if (c === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') i++
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2)
      i = end < 0 ? text.length : end + 2
      out += ' '
    } else if (c === "'" || c === '"' || c === '`') {
      // a string or a template, with its escapes; a template's `${...}` is kept as it is, comments in it are rare
      let j = i + 1
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1
      out += text.slice(i, j + 1)
      i = j + 1
    } else {
      out += c
      i++
    }
  }
  return out
}

const BUILDERS =
  /\.(?:selectFrom|insertInto|replaceInto|mergeInto|updateTable|deleteFrom|innerJoin|leftJoin|rightJoin|fullJoin|crossJoin|innerJoinLateral|leftJoinLateral|table|using)\(\s*(\[[^\]]*\]|'[^']*'|"[^"]*")/g
const QUOTED = /'([^']*)'|"([^"]*)"/g

/**
 * The tables of `tables` (their names in the schema, camelCase) that `source` names, each once, in the order met.
 * A single-word name (`users`) counts in raw SQL after from/join/into/update/table only, since the word is common;
 * a name with an underscore (`cost_series`) counts wherever it is written outside a comment.
 */
export function tablesNamedIn(source: string, tables: readonly string[]): string[] {
  const code = withoutComments(source)
  const found = new Set<string>()
  const known = new Set(tables)
  for (const call of code.matchAll(BUILDERS)) {
    for (const q of call[1]!.matchAll(QUOTED)) {
      const name = (q[1] ?? q[2] ?? '').trim().split(/\s+as\s+/i)[0]!
      if (known.has(name)) found.add(name)
    }
  }
  for (const table of tables) {
    const snake = snakeCase(table)
    const raw = snake.includes('_')
      ? new RegExp(`\\b${snake}\\b`)
      : new RegExp(`\\b(?:from|join|into|update|table)\\s+"?${snake}"?\\b`, 'i')
    if (raw.test(code)) found.add(table)
  }
  return [...found]
}
