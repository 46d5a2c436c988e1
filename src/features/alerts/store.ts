import type { Insertable, Kysely } from 'kysely'
import type { Visibility } from '../../platform/auth/principal.js'
import { chunk } from '../../platform/chunk.js'
import { isUniqueViolation } from '../../platform/db/errors.js'
import type { Database, Queryable } from '../../platform/db/index.js'
import type { AlertRunsTable } from '../../platform/db/schema.js'
import { offsetOf, type Paging } from '../../platform/http/paging.js'
import type { RunColumns, RunStore, RunTable } from '../../platform/runs/store.js'
import { organisationOfTenancy } from '../tenants/public.js'
import type { Frequency } from './constants.js'
import type { RuleRecord, RuleScope, RuleTrigger } from './schemas.js'

/** Alert runs: the kind's name in run events and metrics, and its table. */
export const ALERT_RUNS: RunTable = { name: 'alert', table: 'alert_runs' }

/** The alert run kind's own columns, beside every run table's (RunColumns). */
export type AlertRunColumns = Omit<Insertable<AlertRunsTable>, keyof RunColumns>

/** A rule as stored: the record with its organisation. */
export type RuleDefinition = RuleRecord & { organisationId: string }

type RuleRow = Database['alertRules']

function toDefinition(r: RuleRow, tenancyIds: string[]): RuleDefinition {
  const scope = JSON.parse(r.scope) as RuleScope
  return {
    id: r.id,
    organisationId: r.organisationId,
    name: r.name,
    enabled: r.enabled === 1,
    channelIds: JSON.parse(r.channelIds) as string[],
    // The tenancies live in their own table (who may see the rule); the JSON keeps the rest of the scope.
    scope: { ...scope, tenancyIds: scope.tenancyIds === null ? null : tenancyIds },
    trigger: JSON.parse(r.trigger) as RuleTrigger,
    frequency: r.frequency as Frequency,
    digestHour: r.digestHour ?? 8,
    digestWeekday: (r.digestWeekday ?? 'Monday') as RuleRecord['digestWeekday'],
    timeZone: r.timeZone,
    sendWhenQuiet: r.sendWhenQuiet === 1,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  }
}

function toRow(rule: RuleDefinition): Omit<RuleRow, 'createdAt'> & { createdAt: string } {
  return {
    id: rule.id,
    organisationId: rule.organisationId,
    name: rule.name,
    enabled: rule.enabled ? 1 : 0,
    channelIds: JSON.stringify(rule.channelIds),
    scope: JSON.stringify(rule.scope),
    triggerType: rule.trigger.type,
    trigger: JSON.stringify(rule.trigger),
    frequency: rule.frequency,
    digestHour: rule.digestHour,
    digestWeekday: rule.digestWeekday,
    timeZone: rule.timeZone,
    sendWhenQuiet: rule.sendWhenQuiet ? 1 : 0,
    createdAt: rule.createdAt,
    updatedAt: rule.updatedAt,
  }
}

export function createAlertStore(db: Kysely<Database>, runs: RunStore<AlertRunColumns>) {
  async function tenanciesOf(ruleIds: string[]): Promise<Map<string, string[]>> {
    const byRule = new Map<string, string[]>()
    for (const part of chunk(ruleIds, 500)) {
      const rows = await db
        .selectFrom('alertRuleTenancies')
        .select(['ruleId', 'tenancyId'])
        .where('ruleId', 'in', part)
        .orderBy('tenancyId')
        .execute()
      for (const r of rows) byRule.set(r.ruleId, [...(byRule.get(r.ruleId) ?? []), r.tenancyId])
    }
    return byRule
  }

  async function toDefinitions(rows: RuleRow[]): Promise<RuleDefinition[]> {
    const tenancies = await tenanciesOf(rows.map((r) => r.id))
    return rows.map((r) => toDefinition(r, tenancies.get(r.id) ?? []))
  }

  /** The organisation's rules the visibility covers: an organisation-wide one for 'all' only (owners). */
  function visible(organisationId: string, visibility: Visibility) {
    return db
      .selectFrom('alertRules as r')
      .where('r.organisationId', '=', organisationId)
      .$if(visibility !== 'all', (qb) =>
        qb
          // An organisation-wide rule has no tenancy rows: it must have one at least to be seen by a scoped key.
          .where(({ exists, selectFrom }) =>
            exists(selectFrom('alertRuleTenancies as t').select('t.tenancyId').whereRef('t.ruleId', '=', 'r.id')),
          )
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('alertRuleTenancies as t')
                  .select('t.tenancyId')
                  .whereRef('t.ruleId', '=', 'r.id')
                  .$if(visibility.length > 0, (q) => q.where('t.tenancyId', 'not in', visibility as string[])),
              ),
            ),
          ),
      )
  }

  async function writeTenancies(tx: Kysely<Database>, ruleId: string, tenancyIds: string[] | null) {
    await tx.deleteFrom('alertRuleTenancies').where('ruleId', '=', ruleId).execute()
    if (tenancyIds?.length)
      await tx
        .insertInto('alertRuleTenancies')
        .values(tenancyIds.map((tenancyId) => ({ ruleId, tenancyId })))
        .execute()
  }

  async function byId(ruleId: string): Promise<RuleDefinition | null> {
    const row = await db.selectFrom('alertRules').selectAll().where('id', '=', ruleId).executeTakeFirst()
    return row ? (await toDefinitions([row]))[0]! : null
  }

  return {
    runs,
    byId,

    /** Each change commits with its audit row (`audit`, written in the same transaction). */
    async insert(rule: RuleDefinition, audit: AuditWrite): Promise<void> {
      await db.transaction().execute(async (tx) => {
        await tx.insertInto('alertRules').values(toRow(rule)).execute()
        await writeTenancies(tx, rule.id, rule.scope.tenancyIds)
        await audit(tx)
      })
    },

    async update(rule: RuleDefinition, audit: AuditWrite): Promise<void> {
      await db.transaction().execute(async (tx) => {
        const { id: _id, organisationId: _o, createdAt: _c, ...changes } = toRow(rule)
        await tx.updateTable('alertRules').set(changes).where('id', '=', rule.id).execute()
        await writeTenancies(tx, rule.id, rule.scope.tenancyIds)
        await audit(tx)
      })
    },

    /** Removes the rule with what it sent (cascade); its queued runs find no rule and do nothing. */
    async delete(ruleId: string, audit: AuditWrite): Promise<void> {
      await db.transaction().execute(async (tx) => {
        await tx.deleteFrom('alertSends').where('ruleId', '=', ruleId).execute()
        await tx.deleteFrom('alertRuleTenancies').where('ruleId', '=', ruleId).execute()
        await tx.deleteFrom('alertRules').where('id', '=', ruleId).execute()
        await audit(tx)
      })
    },

    /** What the permission check needs: the organisation and the tenancies covered. */
    async coverage(ruleId: string): Promise<{ organisationId: string; tenancyIds: string[] | 'all' } | null> {
      const rule = await byId(ruleId)
      return rule ? { organisationId: rule.organisationId, tenancyIds: rule.scope.tenancyIds ?? 'all' } : null
    },

    /** Ordered by name, id last. An organisation keeps tens of rules: counting is cheap. */
    async list(organisationId: string, visibility: Visibility, paging: Paging) {
      const matching = visible(organisationId, visibility)
      const [rows, total] = await Promise.all([
        matching
          .selectAll('r')
          .orderBy('r.name')
          .orderBy('r.id')
          .limit(paging.pageSize)
          .offset(offsetOf(paging))
          .execute(),
        matching.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ])
      return { items: await toDefinitions(rows), totalCount: Number(total.n) }
    },

    /** The organisation's enabled rules, for an evaluation. */
    async enabledOf(organisationId: string): Promise<RuleDefinition[]> {
      const rows = await db
        .selectFrom('alertRules')
        .selectAll()
        .where('organisationId', '=', organisationId)
        .where('enabled', '=', 1)
        .orderBy('id')
        .execute()
      return toDefinitions(rows)
    },

    /** Every enabled rule with a digest (Daily or Weekly), of every organisation: the digest schedule's. */
    async digestRules(): Promise<RuleDefinition[]> {
      const rows = await db
        .selectFrom('alertRules')
        .selectAll()
        .where('enabled', '=', 1)
        .where('frequency', 'in', ['Daily', 'Weekly'])
        .orderBy('id')
        .execute()
      return toDefinitions(rows)
    },

    /**
     * Queues the evaluation of an analysis run's results, in the transaction that records the analysis run's
     * success, when the organisation has an enabled rule: an analysis that committed always gets its evaluation.
     */
    async queueAfterAnalysis(
      tx: Queryable,
      values: { id: string; tenantId: string; sourceRunId: string; requestedAt: string },
      /** Whether the organisation has something else evaluated after an analysis (budgets). */
      alsoWanted: (organisationId: string) => Promise<boolean> = async () => false,
    ): Promise<boolean> {
      const t = tx as Kysely<Database>
      const organisationId = await organisationOfTenancy(t, values.tenantId)
      if (!organisationId) return false
      const rule = await t
        .selectFrom('alertRules')
        .select('id')
        .where('organisationId', '=', organisationId)
        .where('enabled', '=', 1)
        .limit(1)
        .executeTakeFirst()
      if (!rule && !(await alsoWanted(organisationId))) return false
      await t
        .insertInto('alertRuns')
        .values({ ...values, organisationId, status: 'Queued', source: 'analysis', ruleId: null, periodKey: null })
        .execute()
      return true
    },

    /** Queues one rule's digest of a period; false when that period has its run already (another worker's). */
    async queueDigest(values: {
      id: string
      organisationId: string
      ruleId: string
      periodKey: string
      requestedAt: string
    }): Promise<boolean> {
      try {
        await runs.queue({ ...values, tenantId: null, source: 'digest', sourceRunId: null })
        return true
      } catch (err) {
        if (isUniqueViolation(err)) return false
        throw err
      }
    },

    /** Of these rules, those with a digest run for `periodKey` already. */
    async digestsQueued(ruleIds: string[], periodKey: string): Promise<Set<string>> {
      if (ruleIds.length === 0) return new Set()
      const rows = await db
        .selectFrom('alertRuns')
        .select('ruleId')
        .where('ruleId', 'in', ruleIds)
        .where('periodKey', '=', periodKey)
        .execute()
      return new Set(rows.map((r) => r.ruleId!))
    },

    async runById(runId: string) {
      return (await db.selectFrom('alertRuns').selectAll().where('id', '=', runId).executeTakeFirst()) ?? null
    },

    /** The runs of an organisation, newest first (tests and the command line). */
    async runsOf(organisationId: string) {
      return db
        .selectFrom('alertRuns')
        .selectAll()
        .where('organisationId', '=', organisationId)
        .orderBy('requestedAt', 'desc')
        .orderBy('id', 'desc')
        .execute()
    },

    /** The level each of these subjects was last sent at by the rule (absent: never sent). */
    async sentLevels(ruleId: string, subjectKeys: readonly string[]): Promise<Map<string, number>> {
      const levels = new Map<string, number>()
      for (const part of chunk([...new Set(subjectKeys)], 500)) {
        const rows = await db
          .selectFrom('alertSends')
          .select(['subjectKey', 'level'])
          .where('ruleId', '=', ruleId)
          .where('subjectKey', 'in', part)
          .execute()
        for (const r of rows) levels.set(r.subjectKey, r.level)
      }
      return levels
    },

    /** Records what was sent, in the alert run's success transaction; a level only ever rises. */
    async recordSends(
      tx: Queryable,
      sends: readonly { ruleId: string; subjectKey: string; level: number; sentAt: string }[],
    ): Promise<void> {
      const t = tx as Kysely<Database>
      for (const part of chunk(sends, 200)) {
        await t
          .insertInto('alertSends')
          .values([...part])
          .onConflict((oc) =>
            oc.columns(['ruleId', 'subjectKey']).doUpdateSet((eb) => ({
              level: eb.ref('excluded.level'),
              sentAt: eb.ref('excluded.sentAt'),
            })),
          )
          .execute()
      }
    },
  }
}
export type AlertStore = ReturnType<typeof createAlertStore>

/** Writes a change's audit row in the change's own transaction. */
export type AuditWrite = (tx: Kysely<Database>) => Promise<void>
