import type { Principal } from '../../platform/auth/principal.js'
import type { Clock, Ids } from '../../platform/clock.js'
import { ApiError } from '../../platform/http/errors.js'
import { type Paging, pageOf } from '../../platform/http/paging.js'
import { queueScheduled } from '../../platform/runs/schedule.js'
import { addDays, toDay } from '../../platform/time.js'
import type { SnapshotRun } from './schemas.js'
import type { SnapshotStore } from './store.js'

export function createSnapshotService(deps: {
  store: SnapshotStore
  clock: Clock
  ids: Ids
  /** The tenant's cost source (AzureConnector, FocusExport, FocusUpload). */
  costSourceOf(tenantId: string): Promise<string | null>
}) {
  const { store, clock, ids } = deps
  return {
    /**
     * Queues a run (a FocusExport tenant's pulls its location); 409 with `activeRunId` while the tenant has one
     * queued or running, and 409 for a tenant whose files are pushed to it: nothing to collect.
     */
    async trigger(who: Principal, tenantId: string, deepHistory: boolean): Promise<SnapshotRun> {
      if ((await deps.costSourceOf(tenantId)) === 'FocusUpload')
        throw ApiError.conflict(
          "This tenant's costs are FOCUS files pushed to it: upload them with POST /tenants/{tenantId}/cost-files.",
        )
      const run = await store.insertQueued({
        id: ids.uuid(),
        tenantId,
        trigger: 'Manual',
        deepHistory,
        requestedAt: clock.now().toISOString(),
        requestedBy: who.actor.id,
      })
      if (!run) {
        const activeRunId = await store.activeRunId(tenantId)
        throw ApiError.conflict('A snapshot of this tenant is already queued or running.', { activeRunId })
      }
      return run
    },

    /**
     * Queues a deep run that collects `days` days before today instead of 30: the demo's history, long enough for
     * anomaly detection to judge. Not an API operation.
     */
    async collectHistory(who: Principal, tenantId: string, days: number): Promise<SnapshotRun> {
      const run = await store.insertQueued({
        id: ids.uuid(),
        tenantId,
        trigger: 'Manual',
        deepHistory: true,
        historyFrom: addDays(toDay(clock.now()), -days),
        requestedAt: clock.now().toISOString(),
        requestedBy: who.actor.id,
      })
      if (!run) throw ApiError.conflict('A snapshot of this tenant is already queued or running.')
      return run
    },

    async list(tenantId: string, paging: Paging) {
      const { items, totalCount } = await store.list(tenantId, paging)
      return pageOf(items, totalCount, paging)
    },

    async get(tenantId: string, id: string): Promise<SnapshotRun> {
      const run = await store.get(tenantId, id)
      if (!run) throw ApiError.notFound(`Snapshot run ${id}`)
      return run
    },

    /**
     * The daily snapshot: from `hour` (UTC) on, each tenant without a scheduled run for today gets one. The
     * unique (tenant, day) index makes this exactly one run per day whatever the number of workers.
     */
    async scheduleDaily(now: Date, hour: number, tenantIds: () => Promise<string[]>): Promise<number> {
      if (now.getUTCHours() < hour) return 0
      const due = new Map([[toDay(now), await tenantIds()]])
      return queueScheduled(
        due,
        store.scheduledAlready,
        async (tenantId, day) =>
          (await store.insertQueued({
            id: ids.uuid(),
            tenantId,
            trigger: 'Scheduled',
            deepHistory: false,
            requestedAt: now.toISOString(),
            requestedBy: null,
            scheduledFor: day,
          })) !== null,
      )
    },
  }
}
export type SnapshotService = ReturnType<typeof createSnapshotService>
