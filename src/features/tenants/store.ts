import type { ExpressionBuilder, Kysely } from 'kysely'
import type { CredentialType } from '../../connectors/types.js'
import type { Visibility } from '../../platform/auth/principal.js'
import { adjustCount, readCount, VersionedCache } from '../../platform/db/counters.js'
import { type Database, prepared } from '../../platform/db/index.js'
import { offsetOf, type Paging } from '../../platform/http/schemas.js'
import { collectionVersionCounter, tenantCounter, tenantVersionCounter } from './counters.js'
import type { TenantRecord } from './schemas.js'

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
  ] as const
}

interface RecordRow extends Omit<TenantRow, 'organisationId' | 'clientSecretSealed'> {
  /** 0/1 on SQLite, a boolean on PostgreSQL. */
  hasClientSecret: unknown
}

function toRecord(row: RecordRow): TenantRecord {
  return {
    id: row.id,
    name: row.name,
    cloudTenantId: row.cloudTenantId,
    credentialType: row.credentialType as CredentialType,
    clientId: row.clientId,
    certificateThumbprint: row.certificateThumbprint,
    hasClientSecret: Boolean(row.hasClientSecret),
    connector: row.connector as TenantRecord['connector'],
    createdAt: row.createdAt,
    // Filled in by cost collection; until a snapshot has run there is neither a run nor a cost.
    lastSnapshot: null,
    costs: { currency: 'USD', monthToDate: 0, previousMonth: 0, last30Days: 0 },
  }
}

function frozenRecord(row: RecordRow): TenantRecord {
  const record = toRecord(row)
  Object.freeze(record.costs)
  return Object.freeze(record)
}

/**
 * Owner keys list an organisation's tenants by page. Two costs dominated it on the list bench (100k tenants):
 *
 * - Reading the 50 rows: ~12 µs of SQLite work, but ~120-200 µs to turn 450 values into JS strings and objects
 *   (better-sqlite3 and Kysely), the largest part of a request. So a page's records are kept, with the version
 *   of the organisation's tenants they were read at, and reused while that version is current.
 * - Deep pages: `OFFSET 49950` walks 49,950 index entries on every request, 1.6-3.3 ms on SQLite and 35-41 ms
 *   on PostgreSQL (heap fetches). So the store also keeps a *mark* every MARK_EVERY rows of the list order, the
 *   (name, id) at that position; page N starts from the nearest mark at or before its offset (`(name, id) >=
 *   mark`, an index range) and skips fewer than MARK_EVERY rows. A mark is found once, by one query that skips
 *   from the nearest known mark.
 *
 * Exact, across processes: the version is `tenants-version:{org}` in row_counts, bumped in the transaction of
 * every write to the organisation's tenants. Each request reads it (with the total) in one statement, or in the
 * statement that reads the rows or finds a mark, so version, total and rows come from one snapshot; a kept page
 * or mark of another version is not used. Bounded: least recently used entries go beyond the byte budgets.
 */
const MARK_EVERY = 200
const PAGE_CACHE_BYTES = 8 * 1024 * 1024
const MARK_CACHE_BYTES = 2 * 1024 * 1024

/**
 * What a kept list page depends on. No total: it is in the page, and the tenant counter is adjusted in the same
 * transactions that bump the tenants version, so the same version means the same total.
 */
export interface ListState {
  /** `tenants-version:{org}`: bumped with every write to the organisation's tenants. */
  tenantsVersion: number
  /** `collection-version:{org}`: bumped with every change to their runs or costs (see bumpCollectionVersion). */
  collectionVersion: number
}

interface ListKey {
  name: string
  id: string
}

/** Roughly what a page of records holds in memory: its strings (UTF-16) and objects. */
function bytesOf(records: TenantRecord[]): number {
  let bytes = 64
  for (const r of records) {
    bytes += 400 + 2 * (r.id.length + r.name.length + r.cloudTenantId.length + r.createdAt.length)
    bytes += 2 * ((r.clientId?.length ?? 0) + (r.certificateThumbprint?.length ?? 0))
  }
  return bytes
}

export function createTenantStore(db: Kysely<Database>) {
  const visibleTo = (organisationId: string, visible: Visibility) =>
    db
      .selectFrom('tenants')
      .where('organisationId', '=', organisationId)
      .$if(visible !== 'all', (qb) => qb.where('id', 'in', visible as string[]))

  /** The tenant count and the version of an organisation's tenants, read in the statement that reads the rows. */
  const counters = (eb: ExpressionBuilder<Database, 'tenants'>, a: { count: string; version: string }) =>
    [
      eb.selectFrom('rowCounts').select('n').where('counter', '=', a.count).as('totalCount'),
      eb.selectFrom('rowCounts').select('n').where('counter', '=', a.version).as('version'),
    ] as const

  type PageArgs = { organisationId: string; count: string; version: string; limit: number; offset: number }
  type MarkArgs = PageArgs & ListKey

  /** An owner's list in its order (name, then id), from the start or from a mark, with the counters. */
  const inListOrder = (a: PageArgs & Partial<ListKey>, fromMark: boolean) =>
    db
      .selectFrom('tenants')
      .select((eb) => counters(eb, a))
      .where('organisationId', '=', a.organisationId)
      .$if(fromMark, (qb) =>
        qb.where(({ eb, refTuple, tuple }) => eb(refTuple('name', 'id'), '>=', tuple(a.name!, a.id!))),
      )
      .orderBy('name')
      .orderBy('id')
      .limit(a.limit)
      .offset(a.offset)

  // The queries of every list request of an owner key, compiled once (see `prepared`): a page of records, or
  // the key at one position (to find a mark).
  const pageFromStart = prepared(db, (a: PageArgs) => inListOrder(a, false).select(recordColumns))
  const pageFromMark = prepared(db, (a: MarkArgs) => inListOrder(a, true).select(recordColumns))
  const keyFromStart = prepared(db, (a: PageArgs) => inListOrder(a, false).select(['name', 'id']))
  const keyFromMark = prepared(db, (a: MarkArgs) => inListOrder(a, true).select(['name', 'id']))

  const readCounters = prepared(db, (a: { count: string; version: string }) =>
    db.selectNoFrom((eb) => [
      eb.selectFrom('rowCounts').select('n').where('counter', '=', a.count).as('totalCount'),
      eb.selectFrom('rowCounts').select('n').where('counter', '=', a.version).as('version'),
    ]),
  )
  const readListState = prepared(db, (a: { version: string; collection: string }) =>
    db.selectNoFrom((eb) => [
      eb.selectFrom('rowCounts').select('n').where('counter', '=', a.version).as('tenantsVersion'),
      eb.selectFrom('rowCounts').select('n').where('counter', '=', a.collection).as('collectionVersion'),
    ]),
  )

  const pages = new VersionedCache<TenantRecord[]>(PAGE_CACHE_BYTES)
  const marks = new VersionedCache<ListKey>(MARK_CACHE_BYTES)
  /** Marks being looked up, so 50 concurrent requests for a new deep page skip the rows once, not 50 times. */
  const finding = new Map<string, Promise<{ key: ListKey; version: number } | null>>()

  /** Mark `index` (> 0) of the organisation's list order, with the version it is exact for; null past the end. */
  function markAt(organisationId: string, index: number) {
    const flight = `${organisationId}:${index}`
    let found = finding.get(flight)
    if (!found) {
      found = findMark(organisationId, index).finally(() => finding.delete(flight))
      finding.set(flight, found)
    }
    return found
  }

  async function findMark(organisationId: string, index: number): Promise<{ key: ListKey; version: number } | null> {
    const args = { organisationId, count: tenantCounter(organisationId), version: tenantVersionCounter(organisationId) }
    let known: { index: number; key: ListKey; version: number } | undefined
    for (let i = index; i > 0 && !known; i--) {
      const mark = marks.get(`${organisationId}:${i}`)
      if (mark) known = { index: i, key: mark.value, version: mark.version }
    }
    // Kept for this very position: its version is checked by the query that reads the page from it.
    if (known?.index === index) return { key: known.key, version: known.version }
    let rows = known
      ? await keyFromMark({ ...args, ...known.key, limit: 1, offset: (index - known.index) * MARK_EVERY })
      : []
    // No mark before this one, or the tenants changed since it was found: skip from the start of the list.
    if (!known || (rows[0] && Number(rows[0].version ?? 0) !== known.version)) {
      rows = await keyFromStart({ ...args, limit: 1, offset: index * MARK_EVERY })
    }
    const row = rows[0]
    if (!row) return null
    const mark = { key: { name: row.name, id: row.id }, version: Number(row.version ?? 0) }
    marks.set(`${organisationId}:${index}`, mark.version, mark.key, 2 * (row.name.length + row.id.length) + 160)
    return mark
  }

  /** An owner key's page, read from the database: from the start for the first MARK_EVERY rows, else from a mark. */
  async function readPage(organisationId: string, paging: Paging) {
    const offset = offsetOf(paging)
    const index = Math.floor(offset / MARK_EVERY)
    const args = {
      organisationId,
      count: tenantCounter(organisationId),
      version: tenantVersionCounter(organisationId),
      limit: paging.pageSize,
    }
    if (index === 0) return pageFromStart({ ...args, offset })
    const mark = await markAt(organisationId, index)
    if (!mark) return [] // past the end of the list
    const rows = await pageFromMark({ ...args, ...mark.key, offset: offset - index * MARK_EVERY })
    if (rows.length === 0 || Number(rows[0]!.version ?? 0) === mark.version) return rows
    // The tenants changed since the mark was found: it may have moved. Forget it; read this page plainly.
    marks.delete(`${organisationId}:${index}`)
    return pageFromStart({ ...args, offset })
  }

  /** An owner key's page and total: the kept records while the version is the same, else read and kept. */
  async function pageOfAll(organisationId: string, paging: Paging) {
    const count = tenantCounter(organisationId)
    const pageKey = `${organisationId}:${paging.page}:${paging.pageSize}`
    const kept = pages.get(pageKey)
    if (kept) {
      const [now] = await readCounters({ count, version: tenantVersionCounter(organisationId) })
      if (Number(now?.version ?? 0) === kept.version) {
        return { items: kept.value, totalCount: Number(now?.totalCount ?? 0) }
      }
    }
    const rows = await readPage(organisationId, paging)
    const first = rows[0]
    if (!first) return { items: [], totalCount: await readCount(db, count) } // past the end: nothing to keep
    // Frozen: the same objects answer later requests, so a caller changing one would change those answers.
    const items = Object.freeze(rows.map(frozenRecord)) as TenantRecord[]
    pages.set(pageKey, Number(first.version ?? 0), items, bytesOf(items))
    return { items, totalCount: Number(first.totalCount ?? 0) }
  }

  return {
    /**
     * The versions of an organisation's tenants and of their collection data, in one statement (one snapshot):
     * what a list request reads to know whether a kept page still holds.
     */
    async listState(organisationId: string): Promise<ListState> {
      const [row] = await readListState({
        version: tenantVersionCounter(organisationId),
        collection: collectionVersionCounter(organisationId),
      })
      return {
        tenantsVersion: Number(row?.tenantsVersion ?? 0),
        collectionVersion: Number(row?.collectionVersion ?? 0),
      }
    },

    async insert(row: TenantRow): Promise<TenantRecord> {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('tenants').values(row).execute()
        await adjustCount(trx, tenantCounter(row.organisationId), 1)
        // Every write to an organisation's tenants bumps its version in the same transaction (see MARK_EVERY).
        await adjustCount(trx, tenantVersionCounter(row.organisationId), 1)
      })
      return toRecord({ ...row, hasClientSecret: row.clientSecretSealed !== null })
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
     * from the counter, in the same snapshot as its rows (see MARK_EVERY). The records returned may be shared
     * with later requests: they are frozen, so build new ones rather than changing them.
     */
    async list(
      organisationId: string,
      visible: Visibility,
      paging: Paging,
    ): Promise<{ items: TenantRecord[]; totalCount: number }> {
      if (visible === 'all') return pageOfAll(organisationId, paging)
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
