import type { Kysely } from 'kysely'
import type { Visibility } from '../../platform/auth/principal.js'
import { adjustCount, readCount } from '../../platform/db/counters.js'
import type { Database } from '../../platform/db/index.js'
import { offsetOf, type Paging } from '../../platform/http/schemas.js'
import { tenantCounter } from '../organisation/store.js'
import type { CredentialType, TenantRecord } from './schemas.js'

export interface TenantRow {
  id: string
  organisationId: string
  name: string
  cloudTenantId: string
  credentialType: string
  clientId: string | null
  certificateThumbprint: string | null
  clientSecretSealed: string | null
  connector: string
  createdAt: string
}

const RECORD_COLUMNS = [
  'id',
  'name',
  'cloudTenantId',
  'credentialType',
  'clientId',
  'certificateThumbprint',
  'clientSecretSealed',
  'connector',
  'createdAt',
] as const

function toRecord(row: Omit<TenantRow, 'organisationId'>): TenantRecord {
  return {
    id: row.id,
    name: row.name,
    cloudTenantId: row.cloudTenantId,
    credentialType: row.credentialType as CredentialType,
    clientId: row.clientId,
    certificateThumbprint: row.certificateThumbprint,
    hasClientSecret: row.clientSecretSealed !== null,
    connector: row.connector as TenantRecord['connector'],
    createdAt: row.createdAt,
    // Filled in by cost collection; until a snapshot has run there is neither a run nor a cost.
    lastSnapshot: null,
    costs: { currency: 'USD', monthToDate: 0, previousMonth: 0, last30Days: 0 },
  }
}

export function createTenantStore(db: Kysely<Database>) {
  const visibleTo = (organisationId: string, visible: Visibility) =>
    db
      .selectFrom('tenants')
      .where('organisationId', '=', organisationId)
      .$if(visible !== 'all', (qb) => qb.where('id', 'in', visible as string[]))

  return {
    async insert(row: TenantRow): Promise<TenantRecord> {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('tenants').values(row).execute()
        await adjustCount(trx, tenantCounter(row.organisationId), 1)
      })
      return toRecord(row)
    },

    async existsWithCloudTenantId(organisationId: string, cloudTenantId: string): Promise<boolean> {
      const row = await db
        .selectFrom('tenants')
        .select('id')
        .where('organisationId', '=', organisationId)
        .where('cloudTenantId', '=', cloudTenantId)
        .executeTakeFirst()
      return row !== undefined
    },

    /** Ordered by name, then id, so pages never repeat or skip while data is unchanged. */
    async list(organisationId: string, visible: Visibility, paging: Paging) {
      const [rows, total] = await Promise.all([
        visibleTo(organisationId, visible)
          .select(RECORD_COLUMNS)
          .orderBy('name')
          .orderBy('id')
          .limit(paging.pageSize)
          .offset(offsetOf(paging))
          .execute(),
        visible === 'all'
          ? readCount(db, tenantCounter(organisationId))
          : visibleTo(organisationId, visible)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
              .then((r) => Number(r.n)),
      ])
      return { items: rows.map(toRecord), totalCount: total }
    },

    async get(organisationId: string, id: string): Promise<TenantRecord | null> {
      const row = await db
        .selectFrom('tenants')
        .select(RECORD_COLUMNS)
        .where('organisationId', '=', organisationId)
        .where('id', '=', id)
        .executeTakeFirst()
      return row ? toRecord(row) : null
    },

    /** Everything a connector needs, secret still sealed; null when there is no such tenant. */
    async connectionRow(id: string): Promise<TenantRow | null> {
      return (await db.selectFrom('tenants').selectAll().where('id', '=', id).executeTakeFirst()) ?? null
    },

    async allIds(): Promise<string[]> {
      return (await db.selectFrom('tenants').select('id').orderBy('id').execute()).map((r) => r.id)
    },

    /** The organisation owning a tenancy, for the permission check; null when there is no such tenancy. */
    async organisationOf(id: string): Promise<string | null> {
      const row = await db.selectFrom('tenants').select('organisationId').where('id', '=', id).executeTakeFirst()
      return row?.organisationId ?? null
    },
  }
}
export type TenantStore = ReturnType<typeof createTenantStore>
