import { ExportLocationError } from '../../connectors/exports/types.js'
import { type Connector, ConnectorError, type CredentialType, type TenantConnection } from '../../connectors/types.js'
import type { Clock, Ids } from '../../platform/clock.js'
import { SealedSecretError, type SecretBox } from '../../platform/crypto.js'
import { ApiError } from '../../platform/http/errors.js'
import { LeaseLostError } from '../../platform/runs/store.js'
import { defineRunKind } from '../../platform/runs/worker.js'
import { addDays, toDay } from '../../platform/time.js'

import type { CostIngest } from '../costs/public.js'
import { saveCpuSamples, syncInventory } from '../inventory/public.js'
import {
  type HostCredentialPolicy,
  hostCredentialsRefusal,
  TENANT_CLIENT_SECRET,
  type TenantStore,
  usesHostCredentials,
} from '../tenants/public.js'

import { FocusImportRejected, failureOf } from './import.js'
import type { ExportPuller } from './pull.js'
import { SNAPSHOT_RUNS, type SnapshotRunColumns, type SnapshotStore } from './store.js'
import { collectionWindow } from './window.js'

/** The last settled day of a collection ending on `to`: its newest `settlingDays` days are still restated. */
export function settledThroughOfWindow(to: string, settlingDays: number): string {
  return addDays(to, -settlingDays)
}

/** What happens after a snapshot's data is committed (anomaly detection, insight rules). */
export type AfterSnapshot = (tenantId: string, runId: string) => Promise<void>

/**
 * A snapshot run: inventory, then daily costs staged batch by batch (a long collection holds no lock), then
 * one transaction that writes inventory, moves the staged costs in and marks the run Succeeded, so a failed or
 * interrupted run leaves the previous data exactly as it was.
 */
export function snapshotRunKind(deps: {
  runs: SnapshotStore
  tenants: TenantStore
  costs: CostIngest
  connectors: Record<string, Connector>
  secrets: SecretBox
  hostCredentials: HostCredentialPolicy
  /**
   * The newest days of a collection the provider still restates (Azure Cost Management: up to 72 hours), which
   * stay preliminary: every connector collects Azure's costs or simulates them.
   */
  settlingDays: number
  /** The snapshot of a FocusExport tenant: a pull of its export's changed billing periods. */
  pull: ExportPuller
  clock: Clock
  ids: Ids
}) {
  const { runs, clock } = deps

  /** A secret that does not open (another key, another row's value) fails the run by name, not as a crash. */
  function openClientSecret(tenantId: string, sealed: string): string {
    try {
      return deps.secrets.open(sealed, TENANT_CLIENT_SECRET.purpose(tenantId))
    } catch (err) {
      if (!(err instanceof SealedSecretError)) throw err
      throw new ConnectorError('invalid_credentials', `The stored client secret cannot be used. ${err.message}`)
    }
  }

  async function connectionOf(
    tenantId: string,
  ): Promise<{ source: string; connector: Connector; conn: TenantConnection }> {
    const row = await deps.tenants.connectionRow(tenantId)
    if (!row) throw new ConnectorError('tenant_missing', 'The tenant no longer exists.')
    const connector = deps.connectors[row.connector]
    if (!connector)
      throw new ConnectorError('connector_unknown', `No connector named "${row.connector}" is configured.`)
    // A tenancy made before the binding, or whose organisation the operator has since left out.
    if (
      usesHostCredentials(row.connector, row.credentialType) &&
      !(await deps.hostCredentials.allows(row.organisationId))
    )
      throw new ConnectorError('host_credentials_not_allowed', `${hostCredentialsRefusal(row.credentialType)}.`)
    return {
      source: row.connector,
      connector,
      conn: {
        tenantId: row.id,
        cloudTenantId: row.cloudTenantId,
        credentialType: row.credentialType as CredentialType,
        clientId: row.clientId,
        clientSecret: row.clientSecretSealed ? openClientSecret(row.id, row.clientSecretSealed) : null,
        certificateThumbprint: row.certificateThumbprint,
      },
    }
  }

  return defineRunKind<SnapshotRunColumns>({
    ...SNAPSHOT_RUNS,

    async handle(claimed, { signal, progress, succeed, commitStep }) {
      const run = (await runs.byId(claimed.id))!
      // An import is done by the process that read the files; a worker only finds one here when that process
      // died and its lease expired. Without the files it cannot go on: the run fails, its staged rows dropped.
      if (run.trigger === 'Import')
        throw new ConnectorError(
          'import_interrupted',
          'The import stopped before it finished; nothing of it was kept. Import the files again.',
        )
      const tenant = await deps.tenants.connectionRow(run.tenantId)
      if (tenant?.costSource === 'FocusExport') {
        await deps.costs.clearStaged(run.id)
        return deps.pull(tenant, { runId: run.id, attempt: claimed.attempts, signal, progress, succeed, commitStep })
      }
      const { source, connector, conn } = await connectionOf(run.tenantId)
      const today = toDay(clock.now())
      const lastPeriodEnd = await runs.lastSucceededPeriodEnd(run.tenantId)
      const window = collectionWindow(today, run.deepHistory === 1, lastPeriodEnd, run.periodStart)
      await runs.setPeriod(run.id, window.from, window.to)
      const stagingKey = `${run.id}:${claimed.attempts}`
      await deps.costs.clearStaged(run.id)

      progress('collecting inventory')
      const context = { clock, signal }
      const inventory = await connector.inventory(conn, context)
      let staged = 0
      for await (const batch of connector.dailyCosts(conn, window, context)) {
        if (signal.aborted) throw new LeaseLostError()
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
      if (signal.aborted) throw new LeaseLostError()

      progress('saving')
      await succeed(async (trx) => {
        const counts = await syncInventory(trx, run.tenantId, inventory, clock.now().toISOString(), deps.ids)
        const costRows = await deps.costs.mergeStaged(trx, stagingKey, { tenantId: run.tenantId, ...window })
        await deps.costs.recordCoverage(trx, {
          tenantId: run.tenantId,
          source,
          ...window,
          settledThrough: settledThroughOfWindow(window.to, deps.settlingDays),
          at: clock.now().toISOString(),
        })
        await saveCpuSamples(trx, run.tenantId, cpu)
        await deps.costs.clearStaged(run.id, trx)
        return {
          periodStart: window.from,
          periodEnd: window.to,
          statSubscriptions: counts.subscriptions,
          statResourceGroups: counts.resourceGroups,
          statResources: counts.resources,
          statCostRows: costRows,
        }
      })
    },

    /** The provider's own answer stands (the connectors already retry throttling); an unreachable provider or an unexpected error may go better next time. */
    failure(error) {
      if (error instanceof ExportLocationError)
        return { code: error.code, message: error.message, retry: error.code === 'location_unreachable' }
      if (error instanceof FocusImportRejected || error instanceof ApiError)
        return { ...failureOf(error), retry: false }
      if (error instanceof ConnectorError)
        return { code: error.code, message: error.message, retry: error.code === 'unreachable' }
      return {
        code: 'collection_failed',
        message: 'Collection failed unexpectedly; the error was logged.',
        retry: true,
      }
    },

    async afterFailure(claimed) {
      await deps.costs.clearStaged(claimed.id)
    },
  })
}
