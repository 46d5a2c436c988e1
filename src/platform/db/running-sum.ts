import type SqliteDatabase from 'better-sqlite3'
import { type Kysely, type RawBuilder, SqliteAdapter, sql } from 'kysely'
import type { Database } from './schema.js'

/**
 * A running sum of `value` per partition, in the order of `day`: what `sum(value) over (partition by ... order by
 * day)` gives when (partition, day) is unique. On PostgreSQL it is that window. On SQLite it is `running_sum()`, a
 * function of this connection that adds each row's value to its partition's sum as the rows go by, so the rows must
 * reach it in (partition, day) order: the caller reads them from a subquery of `orderedSubquery`. SQLite's window
 * sum stores each partition's rows in a table of its own first: 500,000 resource days took 1.8-1.9 s with it and
 * 0.8-0.9 s with this function (the same rows, sums and B-tree).
 */
export function runningSum(
  executor: Kysely<Database>,
  partition: readonly [RawBuilder<unknown>, RawBuilder<unknown>?],
  day: RawBuilder<unknown>,
  value: RawBuilder<unknown>,
): RawBuilder<number> {
  if (!isSqlite(executor))
    return sql<number>`sum(${value}) over (partition by ${sql.join(partition.filter((p) => p !== undefined))}
      order by ${day})`
  return sql<number>`running_sum(${nextRun++}, ${partition[0]}, ${partition[1] ?? null}, ${day}, ${value})`
}

/**
 * The end of a subquery that feeds runningSum: its ORDER BY (already the order of its GROUP BY, so no second sort)
 * with `limit -1` (no limit), without which SQLite drops the ORDER BY of a subquery that is part of a join.
 */
export function orderedSubquery(
  executor: Kysely<Database>,
  order: readonly RawBuilder<unknown>[],
): RawBuilder<unknown> {
  return isSqlite(executor) ? sql`order by ${sql.join(order)} ${keptWhole(executor)}` : sql``
}

/**
 * The end of a subquery whose running sums an outer WHERE filters: `limit -1` (no limit) on SQLite, which keeps
 * the subquery from being merged into the outer query, where the WHERE would drop rows before they are summed.
 */
export function keptWhole(executor: Kysely<Database>): RawBuilder<unknown> {
  return isSqlite(executor) ? sql`limit -1` : sql``
}

function isSqlite(executor: Kysely<Database>): boolean {
  return executor.getExecutor().adapter instanceof SqliteAdapter
}

/** Each statement's own sum: a number no earlier statement of this process passed. */
let nextRun = 1

type Partition = number | bigint | string | null

/**
 * Registers running_sum(run, partition, partition2, day, value) on a SQLite connection. A row of another run, or of
 * another partition, starts a new sum. Rows out of order (a partition or day not after the previous row's) fail the
 * statement rather than give a wrong sum: it would mean SQLite delivered them in another order than the subquery's.
 */
export function registerRunningSum(sqlite: SqliteDatabase.Database): void {
  let run = 0
  let first: Partition = null
  let second: Partition = null
  let lastDay = ''
  let sum = 0
  sqlite.function(
    'running_sum',
    { deterministic: false },
    (runOfRow: unknown, partition: unknown, partition2: unknown, day: unknown, value: unknown) => {
      const p = partition as Partition
      const p2 = partition2 as Partition
      const d = String(day)
      if (runOfRow !== run || p !== first || p2 !== second) {
        if (runOfRow === run && !after(p, p2, first, second)) throw new Error('running_sum: partitions out of order')
        run = runOfRow as number
        first = p
        second = p2
        sum = 0
      } else if (d <= lastDay) throw new Error('running_sum: days out of order')
      lastDay = d
      sum += Number(value)
      return sum
    },
  )
}

/** Whether the partition (a, a2) sorts after (b, b2), as SQLite's ORDER BY sorts numbers and ASCII text. */
function after(a: Partition, a2: Partition, b: Partition, b2: Partition): boolean {
  if (a !== b) return a !== null && (b === null || a > b)
  return a2 !== null && (b2 === null || a2 > b2)
}
