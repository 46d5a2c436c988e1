import type { ExpressionBuilder, Kysely } from 'kysely'
import type { CredentialType } from '../../connectors/types.js'
import type { Visibility } from '../../platform/auth/principal.js'
import { bumpVersion, bumpVersionsOf, readVersion } from '../../platform/cache.js'
import { adjustCount, countOf, readCount } from '../../platform/db/counters.js'
import { type Database, NO_ROW, prepared } from '../../platform/db/index.js'
import { offsetOf, type Paging } from '../../platform/http/paging.js'
import type { SealedColumn } from '../../platform/sealed.js'
import { tenantCounter } from './counters.js'
import type { CostSource, LocationRecord, TenantRecord } from './schemas.js'

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
  costSource: string
  provider: string | null
  locationJson: string | null
  locationSecretSealed: string | null
}

/** What stands for a file-sourced tenant's cloud tenant id in its row (unique per organisation, shown as null). */
export function fileSourceCloudTenantId(id: string): string {
  return `files:${id}`
}

/** A FocusExport tenant's location secret (JSON), sealed for its own row. */
export const TENANT_LOCATION_SECRET: SealedColumn = {
  table: 'tenants',
  column: 'locationSecretSealed',
  purpose: (id) => `tenant:${id}:locationSecret`,
}

/** A tenant's client secret, sealed for its own row: a value copied to another tenant does not open. */
export const TENANT_CLIENT_SECRET: SealedColumn = {
  table: 'tenants',
  column: 'clientSecretSealed',
  purpose: (id) => `tenant:${id}:clientSecret`,
}

/** What a record needs: whether a secret is stored, never the sealed secret (a long string read for nothing). */
function recordColumns(eb: ExpressionBuilder<Database, 'tenants'>) {
  return [
    'id',
    'name',
    'cloudTenantId',
    'credentialType',
    'clientId',
    'certificateThumbprint',
    eb('clientSecretSealed', 'is not', null).as('hasClientSecret'),
    'connector',
    'createdAt',
    'costSource',
    'provider',
    'locationJson',
    eb('locationSecretSealed', 'is not', null).as('hasLocationSecret'),
  ] as const
}

interface RecordRow extends Omit<TenantRow, 'organisationId' | 'clientSecretSealed' | 'locationSecretSealed'> {
  /** 0/1 on SQLite, a boolean on PostgreSQL. */
  hasClientSecret: unknown
  hasLocationSecret: unknown
}

function toRecord(row: RecordRow): TenantRecord {
  const costSource = row.costSource as CostSource
  const azure = costSource === 'AzureConnector'
  return {
    id: row.id,
    name: row.name,
    cloudTenantId: azure ? row.cloudTenantId : null,
    credentialType: azure ? (row.credentialType as CredentialType) : null,
    clientId: row.clientId,
    certificateThumbprint: row.certificateThumbprint,
    hasClientSecret: Boolean(row.hasClientSecret),
    connector: row.connector as TenantRecord['connector'],
    createdAt: row.createdAt,
    // Filled in by cost collection; until a snapshot has run there is neither a run nor a cost.
    lastSnapshot: null,
    costs: { currency: 'USD', monthToDate: 0, previousMonth: 0, last30Days: 0 },
    costSource,
    provider: azure ? 'Azure' : (row.provider as TenantRecord['provider']),
    location: row.locationJson ? locationRecordOf(row.locationJson, Boolean(row.hasLocationSecret)) : null,
  }
}

/** A stored location as the record shows it; a Blob location stored before service principals signed in with its SAS. */
function locationRecordOf(json: string, hasSecret: boolean): LocationRecord {
  const stored = JSON.parse(json) as Omit<LocationRecord, 'hasSecret'>
  if (stored.type === 'AzureBlob' && stored.auth === undefined) return { ...stored, auth: 'Sas', hasSecret }
  return { ...stored, hasSecret }
}

/**
 * Bumps the cache versions (platform/cache.ts) of the organisations owning `tenancyIds`, in the caller's
 * transaction: the tenants are this store's rows, so it is the one to select their organisations. One statement
 * whatever their number.
 */
export async function bumpVersionOfTenancies(db: Kysely<Database>, tenancyIds: string | readonly string[]) {
  const ids = typeof tenancyIds === 'string' ? [tenancyIds] : [...new Set(tenancyIds)]
  if (ids.length === 0) return
  await bumpVersionsOf(db, db.selectFrom('tenants').select('organisationId').where('id', 'in', ids))
}

export function createTenantStore(db: Kysely<Database>) {
  const visibleTo = (organisationId: string, visible: Visibility) =>
    db
      .selectFrom('tenants')
      .where('organisationId', '=', organisationId)
      .$if(visible !== 'all', (qb) => (visible.length ? qb.where('id', 'in', visible as string[]) : qb.where(NO_ROW)))

  // An owner key's page with the organisation's tenant count, in one statement (one snapshot); compiled once
  // (see `prepared`). The pages are kept whole by the tenant service (see platform/cache.ts).
  const pageOfAll = prepared(db, (a: { organisationId: string; count: string; limit: number; offset: number }) =>
    db
      .selectFrom('tenants')
      .select(recordColumns)
      .select(countOf(db, a.count).as('totalCount'))
      .where('organisationId', '=', a.organisationId)
      .orderBy('name')
      .orderBy('id')
      .limit(a.limit)
      .offset(a.offset),
  )

  return {
    /** The organisation's cache version, when the caller's key did not bring it (see platform/cache.ts). */
    cacheVersion: (organisationId: string) => readVersion(db, organisationId),

    /** `audit` writes the change's audit entry in the same transaction. */
    async insert(row: TenantRow, audit: (trx: Kysely<Database>) => Promise<void>): Promise<TenantRecord> {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('tenants').values(row).execute()
        await audit(trx)
        await adjustCount(trx, tenantCounter(row.organisationId), 1)
        await bumpVersion(trx, row.organisationId)
      })
      return toRecord({
        ...row,
        hasClientSecret: row.clientSecretSealed !== null,
        hasLocationSecret: row.locationSecretSealed !== null,
      })
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

    /**
     * Ordered by name, then id, so pages never repeat or skip while data is unchanged. An owner key's total comes
     * from the counter, in the same snapshot as its rows: a `COUNT(*)` of 100k rows costs milliseconds.
     */
    async list(
      organisationId: string,
      visible: Visibility,
      paging: Paging,
    ): Promise<{ items: TenantRecord[]; totalCount: number }> {
      if (visible === 'all') {
        const count = tenantCounter(organisationId)
        const rows = await pageOfAll({ organisationId, count, limit: paging.pageSize, offset: offsetOf(paging) })
        // Past the end there is no row to carry the total.
        const totalCount = rows[0] ? Number(rows[0].totalCount ?? 0) : await readCount(db, count)
        return { items: rows.map(toRecord), totalCount }
      }
      // A scoped key sees the few tenancies it was granted: plain queries, counted exactly.
      const [rows, total] = await Promise.all([
        visibleTo(organisationId, visible)
          .select(recordColumns)
          .orderBy('name')
          .orderBy('id')
          .limit(paging.pageSize)
          .offset(offsetOf(paging))
          .execute(),
        visibleTo(organisationId, visible)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
          .then((r) => Number(r.n)),
      ])
      return { items: rows.map(toRecord), totalCount: total }
    },

    async get(organisationId: string, id: string): Promise<TenantRecord | null> {
      const row = await db
        .selectFrom('tenants')
        .select(recordColumns)
        .where('organisationId', '=', organisationId)
        .where('id', '=', id)
        .executeTakeFirst()
      return row ? toRecord(row) : null
    },

    /** Everything a connector needs, secret still sealed; null when there is no such tenant. */
    async connectionRow(id: string): Promise<TenantRow | null> {
      return (await db.selectFrom('tenants').selectAll().where('id', '=', id).executeTakeFirst()) ?? null
    },

    /** Where a tenant's costs come from; null when there is no such tenant. */
    async costSourceOf(id: string): Promise<string | null> {
      const row = await db.selectFrom('tenants').select('costSource').where('id', '=', id).executeTakeFirst()
      return row?.costSource ?? null
    },

    /** Tenants whose costs are collected or pulled on schedule: every source but pushed files. */
    async scheduledIds(): Promise<string[]> {
      return (
        await db.selectFrom('tenants').select('id').where('costSource', '<>', 'FocusUpload').orderBy('id').execute()
      ).map((r) => r.id)
    },

    /** Records the cloud a file source's data names, in the import's transaction. */
    async setProvider(trx: Kysely<Database>, id: string, provider: string): Promise<void> {
      await trx.updateTable('tenants').set({ provider }).where('id', '=', id).execute()
      const organisationId = await organisationOfTenancy(trx, id)
      if (organisationId) await bumpVersion(trx, organisationId)
    },

    /** The organisation owning a tenancy, for the permission check; null when there is no such tenancy. */
    async organisationOf(id: string): Promise<string | null> {
      const row = await db.selectFrom('tenants').select('organisationId').where('id', '=', id).executeTakeFirst()
      return row?.organisationId ?? null
    },
  }
}
export type TenantStore = ReturnType<typeof createTenantStore>

/*
 * What other features read of tenants (a report's tenancies, the organisation's count): functions over the
 * caller's connection, so that only this store names the table.
 */

/**
 * The ids of an organisation's tenancies as a subquery, for another feature's list that keeps only the rows of one
 * organisation (`where tenant_id in (...)`): one query, without the caller naming the table.
 */
export function organisationTenantIds(db: Kysely<Database>, organisationId: string) {
  return db.selectFrom('tenants').select('id').where('organisationId', '=', organisationId)
}

/** The organisation of a tenancy, over the caller's connection (a transaction in progress); null when unknown. */
export async function organisationOfTenancy(db: Kysely<Database>, tenancyId: string): Promise<string | null> {
  const row = await db.selectFrom('tenants').select('organisationId').where('id', '=', tenancyId).executeTakeFirst()
  return row?.organisationId ?? null
}

/** The tenancies of an organisation, by name (id last). */
export async function organisationTenancies(
  db: Kysely<Database>,
  organisationId: string,
): Promise<{ id: string; name: string }[]> {
  return db
    .selectFrom('tenants')
    .select(['id', 'name'])
    .where('organisationId', '=', organisationId)
    .orderBy('name')
    .orderBy('id')
    .execute()
}

/** These tenancies' names, by name; unknown ids are left out. */
export async function tenancyNames(
  db: Kysely<Database>,
  ids: readonly string[],
): Promise<{ id: string; name: string }[]> {
  if (ids.length === 0) return []
  return db
    .selectFrom('tenants')
    .select(['id', 'name'])
    .where('id', 'in', [...ids])
    .orderBy('name')
    .execute()
}

/** Of these ids, those that are no tenancy of the organisation. */
export async function notInOrganisation(
  db: Kysely<Database>,
  organisationId: string,
  ids: string[],
): Promise<string[]> {
  if (ids.length === 0) return []
  const found = await db
    .selectFrom('tenants')
    .select('id')
    .where('organisationId', '=', organisationId)
    .where('id', 'in', ids)
    .execute()
  const known = new Set(found.map((r) => r.id))
  return ids.filter((id) => !known.has(id))
}

/** How many of the organisation's tenancies are visible: the kept counter for all, else a count over the index. */
export async function visibleTenancyCount(
  db: Kysely<Database>,
  organisationId: string,
  visible: Visibility,
): Promise<number> {
  if (visible === 'all') return readCount(db, tenantCounter(organisationId))
  if (visible.length === 0) return 0 // a principal with no tenancy (PostgreSQL refuses `in ()`)
  const row = await db
    .selectFrom('tenants')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organisationId', '=', organisationId)
    .where('id', 'in', visible)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}
