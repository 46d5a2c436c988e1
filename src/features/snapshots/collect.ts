import type { Kysely } from 'kysely'
import { type Connector, ConnectorError, type CredentialType, type TenantConnection } from '../../connectors/types.js'
import type { Clock, Ids } from '../../platform/clock.js'
import type { SecretBox } from '../../platform/crypto.js'
import type { Database } from '../../platform/db/index.js'
import type { ClaimedRun } from '../../platform/runs/queue.js'
import type { RunHandler } from '../../platform/runs/worker.js'
import { toDay } from '../../platform/time.js'
import type { CostStore } from '../costs/store.js'
import { saveCpuSamples, syncInventory } from '../inventory/store.js'
import type { TenantStore } from '../tenants/store.js'
import type { SnapshotStore } from './store.js'
import { collectionWindow } from './window.js'

export class LeaseLostError extends Error {}

/** What happens after a snapshot's data is committed (anomaly detection, insight rules). */
export type AfterSnapshot = (tenantId: string, runId: string) => Promise<void>

/**
 * A snapshot run: inventory, then daily costs staged batch by batch (a long collection holds no lock), then
 * one transaction that writes inventory, moves the staged costs in and marks the run Succeeded, so a failed or
 * interrupted run leaves the previous data exactly as it was.
 */
export function createSnapshotHandler(deps: {
  db: Kysely<Database>
  runs: SnapshotStore
  tenants: TenantStore
  costs: CostStore
  connectors: Record<string, Connector>
  secrets: SecretBox
  clock: Clock
  ids: Ids
  workerId: string
  afterSnapshot?: AfterSnapshot
}): RunHandler {
  const { db, runs, clock } = deps

  async function connectionOf(tenantId: string): Promise<{ connector: Connector; conn: TenantConnection }> {
    const row = await deps.tenants.connectionRow(tenantId)
    if (!row) throw new ConnectorError('tenant_missing', 'The tenant no longer exists.')
    const connector = deps.connectors[row.connector]
    if (!connector)
      throw new ConnectorError('connector_unknown', `No connector named "${row.connector}" is configured.`)
    return {
      connector,
      conn: {
        tenantId: row.id,
        cloudTenantId: row.cloudTenantId,
        credentialType: row.credentialType as CredentialType,
        clientId: row.clientId,
        clientSecret: row.clientSecretSealed ? deps.secrets.open(row.clientSecretSealed) : null,
        certificateThumbprint: row.certificateThumbprint,
      },
    }
  }

  return {
    async handle(claimed: ClaimedRun, { signal, progress }) {
      const run = (await runs.byId(claimed.id))!
      const { connector, conn } = await connectionOf(run.tenantId)
      const today = toDay(clock.now())
      const window = collectionWindow(today, run.deepHistory === 1, await runs.lastSucceededPeriodEnd(run.tenantId))
      await runs.setPeriod(run.id, window.from, window.to)
      const stagingKey = `${run.id}:${claimed.attempts}`
      await deps.costs.clearStaged(run.id)

      progress('collecting inventory')
      const context = { clock, signal }
      const inventory = await connector.inventory(conn, context)
      let staged = 0
      for await (const batch of connector.dailyCosts(conn, window, context)) {
        if (signal.aborted) throw new LeaseLostError('The run was taken over by another worker.')
        await deps.costs.stage(stagingKey, run.tenantId, batch)
        staged += batch.length
        progress(`collecting costs: ${staged} rows so far`)
      }
      progress('collecting CPU metrics')
      const vms = inventory.resources.filter(
        (r) => r.resourceType.toLowerCase() === 'microsoft.compute/virtualmachines',
      )
      const cpu = await connector.cpuMetrics(
        conn,
        vms.map((v) => v.armId),
        window,
        context,
      )
      if (signal.aborted) throw new LeaseLostError('The run was taken over by another worker.')

      progress('saving')
      await db.transaction().execute(async (trx) => {
        const counts = await syncInventory(trx, run.tenantId, inventory, clock.now().toISOString(), deps.ids)
        const costRows = await deps.costs.mergeStaged(trx, stagingKey)
        await saveCpuSamples(trx, run.tenantId, cpu)
        await deps.costs.clearStaged(run.id, trx)
        const ours = await runs.markSucceeded(trx, run.id, deps.workerId, {
          completedAt: clock.now().toISOString(),
          periodStart: window.from,
          periodEnd: window.to,
          stats: { ...counts, costRows },
        })
        // Another worker took the run over (our lease expired): roll back, its attempt will write instead.
        if (!ours) throw new LeaseLostError('The run was taken over by another worker.')
      })
      await deps.afterSnapshot?.(run.tenantId, run.id)
    },

    async fail(claimed, error) {
      if (error instanceof LeaseLostError) return
      const failure =
        error instanceof ConnectorError
          ? { code: error.code, message: error.message }
          : { code: 'collection_failed', message: 'Collection failed unexpectedly; the error was logged.' }
      await deps.costs.clearStaged(claimed.id)
      await runs.markFailed(claimed.id, deps.workerId, clock.now().toISOString(), failure)
    },
  }
}
