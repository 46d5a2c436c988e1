import type { Kysely } from 'kysely'
import type { SecretBox } from './crypto.js'
import type { Database, Db } from './db/index.js'

/**
 * A column of sealed secrets: its table, and the purpose each value was sealed for (the associated data that
 * binds it to its row). The owner of the table declares it beside the seal and open calls, which use `purpose`
 * too; `resealAll` walks every declared column, as the run store walks every run table.
 */
export interface SealedColumn {
  /** The table and column as the schema names them (camel case). */
  table: keyof Database
  column: string
  purpose(id: string): string
}

/** The outbox's message bodies (platform/mail.ts). */
export const MAIL_BODY: SealedColumn = {
  table: 'mailOutbox',
  column: 'bodySealed',
  purpose: (id) => `mail:${id}:body`,
}

export interface ResealOutcome {
  /** Values sealed anew under the current key. */
  resealed: number
  /** Values already in today's format under the current key. */
  unchanged: number
  /** Values that opened with none of the keys given: named by table and row, never by value. */
  failed: { table: string; id: string; reason: string }[]
}

const BATCH = 200

/**
 * Re-seals every value of `columns` that is not in today's format under `box`'s current key (a `v1:` value, or
 * one of an older key `box` also holds), one transaction per batch of rows. A row is updated only if it still
 * holds the value read, so a concurrent write is never overwritten; a second run finds nothing to do.
 */
export async function resealAll(
  db: Db,
  box: SecretBox,
  columns: readonly SealedColumn[],
  progress: (line: string) => void,
): Promise<ResealOutcome> {
  const outcome: ResealOutcome = { resealed: 0, unchanged: 0, failed: [] }
  // The tables are named by their declarations, not known to the type system here.
  const k = db.kysely as unknown as Kysely<Record<string, { id: string } & Record<string, string | null>>>
  for (const c of columns) {
    let after = ''
    let seen = 0
    let resealed = 0
    for (;;) {
      const last = await k.transaction().execute(async (trx) => {
        const rows = (await trx
          .selectFrom(c.table)
          .select(['id', c.column])
          .where(c.column, 'is not', null)
          .where('id', '>', after)
          .orderBy('id')
          .limit(BATCH)
          .execute()) as unknown as { id: string; [column: string]: string | null }[]
        for (const row of rows) {
          const sealed = row[c.column]!
          if (box.isCurrent(sealed)) {
            outcome.unchanged++
            continue
          }
          let plain: string
          try {
            plain = box.open(sealed, c.purpose(row.id))
          } catch (err) {
            outcome.failed.push({ table: c.table, id: row.id, reason: (err as Error).message })
            continue
          }
          const updated = await trx
            .updateTable(c.table)
            .set({ [c.column]: box.seal(plain, c.purpose(row.id)) })
            .where('id', '=', row.id)
            .where(c.column, '=', sealed)
            .executeTakeFirst()
          if (Number(updated.numUpdatedRows) === 1) resealed++
        }
        seen += rows.length
        return rows.length === BATCH ? rows[rows.length - 1]!.id : null
      })
      progress(`${c.table}.${c.column}: ${seen} read, ${resealed} re-sealed`)
      if (last === null) break
      after = last
    }
    outcome.resealed += resealed
  }
  return outcome
}
