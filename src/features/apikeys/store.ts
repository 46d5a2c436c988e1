import type { Kysely } from 'kysely'
import type { TenancyRole } from '../../platform/auth/principal.js'
import { versionOf } from '../../platform/cache.js'
import { type Database, prepared } from '../../platform/db/index.js'
import type { ActorRef } from '../../platform/http/schemas.js'
import type { ApiKeyRecord, TenancyGrant } from './schemas.js'

export interface KeyForVerification {
  id: string
  organisationId: string
  name: string
  ownerScoped: boolean
  expiresAt: string | null
  revokedAt: string | null
  lastUsedAt: string | null
  grants: { tenancyId: string; role: TenancyRole }[]
  /** The user who created the key in the web interface (its rights bound the key's), or null (the command line). */
  creatorUserId: string | null
  /** The organisation's cache version, read in the same statement (see platform/cache.ts). */
  cacheVersion: number
}

export interface NewApiKey {
  id: string
  organisationId: string
  name: string
  prefix: string
  hash: string
  grants: TenancyGrant[] | null
  createdAt: string
  createdBy: ActorRef
  expiresAt: string | null
}

export function createApiKeyStore(db: Kysely<Database>) {
  async function grantsOf(keyIds: string[], trx: Kysely<Database>) {
    if (keyIds.length === 0) return new Map<string, TenancyGrant[]>()
    const rows = await trx
      .selectFrom('apiKeyTenancies')
      .select(['keyId', 'tenancyId', 'role'])
      .where('keyId', 'in', keyIds)
      .orderBy('tenancyId')
      .execute()
    const byKey = new Map<string, TenancyGrant[]>()
    for (const r of rows)
      byKey.set(r.keyId, [...(byKey.get(r.keyId) ?? []), { tenancyId: r.tenancyId, role: r.role as TenancyRole }])
    return byKey
  }

  // Run on every request, so compiled once (see `prepared`). It reads the organisation's cache version too: one
  // statement for both, on every request of a kept page.
  const keyByHash = prepared(db, (a: { hash: string }) =>
    db
      .selectFrom('apiKeys')
      .select([
        'id',
        'organisationId',
        'name',
        'ownerScoped',
        'expiresAt',
        'revokedAt',
        'lastUsedAt',
        'createdByType',
        'createdById',
      ])
      .select((eb) => versionOf(eb.ref('apiKeys.organisationId')).as('cacheVersion'))
      .where('hash', '=', a.hash),
  )
  const grantsOfKey = prepared(db, (a: { keyId: string }) =>
    db.selectFrom('apiKeyTenancies').select(['tenancyId', 'role']).where('keyId', '=', a.keyId).orderBy('tenancyId'),
  )

  return {
    /** One indexed lookup by hash per request: revocation and expiry are seen at once, on every instance. */
    async findByHash(hash: string): Promise<KeyForVerification | null> {
      const [row] = await keyByHash({ hash })
      if (!row) return null
      const grants = row.ownerScoped
        ? []
        : (await grantsOfKey({ keyId: row.id })).map((g) => ({ tenancyId: g.tenancyId, role: g.role as TenancyRole }))
      const { createdByType, createdById, ...key } = row
      return {
        ...key,
        ownerScoped: row.ownerScoped === 1,
        grants,
        // A user-created key with no user id cannot be bound: it names a creator no one can check, so it fails.
        creatorUserId: createdByType === 'User' ? (createdById ?? '') : null,
        cacheVersion: Number(row.cacheVersion ?? 0),
      }
    },

    /** Throttled: only when the stored value is older than `staleBefore`, so busy keys cost one write a minute. */
    async touch(id: string, at: string, staleBefore: string): Promise<void> {
      await db
        .updateTable('apiKeys')
        .set({ lastUsedAt: at })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('lastUsedAt', 'is', null), eb('lastUsedAt', '<', staleBefore)]))
        .execute()
    },

    /**
     * In `trx` when given (the caller's transaction), else in a transaction of its own; `alsoWrite` adds what
     * must commit with the key (its audit row).
     */
    async insert(
      key: NewApiKey,
      trx: Kysely<Database> = db,
      alsoWrite?: (trx: Kysely<Database>) => Promise<void>,
    ): Promise<void> {
      const write = async (trx: Kysely<Database>) => {
        await trx
          .insertInto('apiKeys')
          .values({
            id: key.id,
            organisationId: key.organisationId,
            name: key.name,
            prefix: key.prefix,
            hash: key.hash,
            ownerScoped: key.grants === null ? 1 : 0,
            createdAt: key.createdAt,
            createdByType: key.createdBy.type,
            createdById: key.createdBy.id,
            createdByName: key.createdBy.name,
            expiresAt: key.expiresAt,
          })
          .execute()
        if (key.grants?.length) {
          await trx
            .insertInto('apiKeyTenancies')
            .values(key.grants.map((g) => ({ keyId: key.id, tenancyId: g.tenancyId, role: g.role })))
            .execute()
        }
        await alsoWrite?.(trx)
      }
      await (trx.isTransaction ? write(trx) : trx.transaction().execute(write))
    },

    async list(organisationId: string, trx: Kysely<Database> = db): Promise<Omit<ApiKeyRecord, 'createdByEmail'>[]> {
      const rows = await trx
        .selectFrom('apiKeys')
        .selectAll()
        .where('organisationId', '=', organisationId)
        .orderBy('createdAt')
        .orderBy('id')
        .execute()
      const grants = await grantsOf(
        rows.filter((r) => !r.ownerScoped).map((r) => r.id),
        trx,
      )
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        prefix: r.prefix,
        scope: r.ownerScoped ? 'owner' : (grants.get(r.id) ?? []),
        createdAt: r.createdAt,
        createdBy: { type: r.createdByType as ActorRef['type'], id: r.createdById, name: r.createdByName },
        expiresAt: r.expiresAt,
        lastUsedAt: r.lastUsedAt,
        revokedAt: r.revokedAt,
      }))
    },

    async get(id: string): Promise<{ organisationId: string; name: string; revokedAt: string | null } | null> {
      return (
        (await db
          .selectFrom('apiKeys')
          .select(['organisationId', 'name', 'revokedAt'])
          .where('id', '=', id)
          .executeTakeFirst()) ?? null
      )
    },

    /** Revokes the key unless it already was; `alsoWrite` (its audit row) commits with a revocation that happened. */
    async revoke(id: string, at: string, alsoWrite?: (trx: Kysely<Database>) => Promise<void>): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('apiKeys')
          .set({ revokedAt: at })
          .where('id', '=', id)
          .where('revokedAt', 'is', null)
          .executeTakeFirst()
        if (Number(result.numUpdatedRows) === 1) await alsoWrite?.(trx)
      })
    },
  }
}
export type ApiKeyStore = ReturnType<typeof createApiKeyStore>
