import type { Kysely, Selectable, Updateable } from 'kysely'
import type { Database } from '../../platform/db/index.js'
import type { NotificationChannelsTable } from '../../platform/db/schema.js'
import { offsetOf, type Paging } from '../../platform/http/paging.js'
import type { SealedColumn } from '../../platform/sealed.js'

// The channels' part of the notifications store: the notification_channels table (a delivery's run rows are the
// deliveries' part).

/** A channel's URL (Slack, Teams and Webhook): a Slack or Teams URL is itself a credential. */
export const CHANNEL_URL: SealedColumn = {
  table: 'notificationChannels',
  column: 'urlSealed',
  purpose: (id) => `notificationChannel:${id}:url`,
}
/** A Webhook channel's signing secret (`whsec_...`). */
export const CHANNEL_SECRET: SealedColumn = {
  table: 'notificationChannels',
  column: 'secretSealed',
  purpose: (id) => `notificationChannel:${id}:secret`,
}
/** The secret a rotation replaced, signing beside the new one until `previous_secret_until`. */
export const CHANNEL_PREVIOUS_SECRET: SealedColumn = {
  table: 'notificationChannels',
  column: 'previousSecretSealed',
  purpose: (id) => `notificationChannel:${id}:previousSecret`,
}

export type ChannelRow = Selectable<NotificationChannelsTable>
export type ChannelChanges = Omit<Updateable<NotificationChannelsTable>, 'id' | 'organisationId' | 'type' | 'createdAt'>
/** What an update expects of the row it changes. */
export type Precondition = Partial<Pick<ChannelRow, 'updatedAt' | 'enabled' | 'urlSealed' | 'secretSealed'>>
/** What commits with a change (its audit row, the owners' e-mails). */
type AlsoWrite = (trx: Kysely<Database>) => Promise<void>

export function createChannelStore(db: Kysely<Database>) {
  return {
    async insert(row: ChannelRow, alsoWrite: AlsoWrite): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('notificationChannels').values(row).execute()
        await alsoWrite(trx)
      })
    },

    /** A channel of the organisation; another organisation's is null, like an unknown one. */
    async get(organisationId: string, id: string): Promise<ChannelRow | null> {
      return (
        (await db
          .selectFrom('notificationChannels')
          .selectAll()
          .where('id', '=', id)
          .where('organisationId', '=', organisationId)
          .executeTakeFirst()) ?? null
      )
    },

    /** A channel of any organisation (what a delivery of it needs). */
    async byId(id: string): Promise<ChannelRow | null> {
      return (await db.selectFrom('notificationChannels').selectAll().where('id', '=', id).executeTakeFirst()) ?? null
    },

    /** The organisation's channels by name, id last (the (organisation, name, id) index). */
    async list(organisationId: string, paging: Paging): Promise<{ items: ChannelRow[]; totalCount: number }> {
      const inOrg = db.selectFrom('notificationChannels').where('organisationId', '=', organisationId)
      const [rows, total] = await Promise.all([
        inOrg.selectAll().orderBy('name').orderBy('id').limit(paging.pageSize).offset(offsetOf(paging)).execute(),
        inOrg.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ])
      return { items: rows, totalCount: Number(total.n) }
    },

    /**
     * Changes the row if it still holds what `when` says it read (the row as read, its `enabled` for a disable, its
     * secret for a rotation): a concurrent change in between makes this one a no-op, reported by false, and nothing
     * of `alsoWrite` is written.
     */
    async update(id: string, when: Precondition, changes: ChannelChanges, alsoWrite: AlsoWrite): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        let query = trx.updateTable('notificationChannels').set(changes).where('id', '=', id)
        for (const [column, value] of Object.entries(when) as [keyof Precondition, string | number | null][]) {
          query = value === null ? query.where(column, 'is', null) : query.where(column, '=', value)
        }
        const result = await query.executeTakeFirst()
        if (Number(result.numUpdatedRows) !== 1) return false
        await alsoWrite(trx)
        return true
      })
    },

    /** Removes the channel and its deliveries (the foreign key cascades on PostgreSQL; SQLite is told the same). */
    async delete(id: string, alsoWrite: AlsoWrite): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        await trx.deleteFrom('notificationDeliveries').where('channelId', '=', id).execute()
        const result = await trx.deleteFrom('notificationChannels').where('id', '=', id).executeTakeFirst()
        if (Number(result.numDeletedRows) !== 1) return false
        await alsoWrite(trx)
        return true
      })
    },
  }
}
export type ChannelStore = ReturnType<typeof createChannelStore>
