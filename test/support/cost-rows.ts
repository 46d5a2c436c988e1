import type { DailyCostRow } from '../../src/connectors/types.js'

/**
 * A cost row as a connector yields it: one day of a VM's usage in EUR, with what `over` changes. The
 * subscription and resource are the caller's (each suite keeps its own ids).
 */
export function costRow(
  over: Partial<DailyCostRow> & Pick<DailyCostRow, 'subscriptionId' | 'resourceArmId'>,
): DailyCostRow {
  return {
    date: '2026-02-01',
    resourceGroupName: 'app',
    meterId: 'meter-vm',
    meterName: 'D2s v3',
    chargeCategory: 'Usage',
    chargeClass: null,
    serviceName: 'Virtual Machines',
    cost: 1,
    currency: 'EUR',
    ...over,
  }
}
