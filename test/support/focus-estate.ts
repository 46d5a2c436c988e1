import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Estate, focusFiles, type Resource } from '../../eval/estate.js'

export const SUBSCRIPTION = '11111111-aaaa-4aaa-8aaa-111111111111'
export const ESTATE_DAYS = Array.from({ length: 59 }, (_, d) =>
  new Date(Date.parse('2026-01-01T00:00:00Z') + d * 86_400_000).toISOString().slice(0, 10),
)
export const SPIKE_DAY = '2026-02-20'
export const DROP_DAY = '2026-02-10'

function resource(
  group: string,
  name: string,
  type: string,
  service: string,
  level: number,
  tags: Record<string, string>,
  k: number,
): Resource {
  return {
    subscriptionId: SUBSCRIPTION,
    group,
    name,
    armId: `/subscriptions/${SUBSCRIPTION}/resourceGroups/${group}/providers/${type}/${name}`,
    service,
    resourceType: type,
    meterId: `00000000-0000-4000-8000-00000000000${k}`,
    tags,
    // Weekends at 70%, a small deterministic wobble: a series detection judges as usual.
    costs: ESTATE_DAYS.map((_, d) => {
      const dow = (d + 4) % 7
      return level * (dow === 0 || dow === 6 ? 0.7 : 1) * (1 + 0.02 * Math.sin(d * 1.7 + k))
    }),
  }
}

/**
 * A small estate of one subscription, two groups and four resources over 2026-01-01..2026-02-28, with a spike of
 * vm-web-1 (5 times its cost) on SPIKE_DAY, an outage of db-1 (10%) on DROP_DAY and the day after, and a decoy:
 * st-logs, costing 1.50 a day, 8 times that on SPIKE_DAY (large in percent, tiny in money).
 */
export function plantedEstate(options: { spikeFactor?: number } = {}): Estate {
  const vm1 = resource(
    'web-prod',
    'vm-web-1',
    'Microsoft.Compute/virtualMachines',
    'Virtual Machines',
    100,
    { env: 'prod', team: 'web' },
    1,
  )
  const vm2 = resource(
    'web-prod',
    'vm-web-2',
    'Microsoft.Compute/virtualMachines',
    'Virtual Machines',
    80,
    { env: 'prod', Team: 'platform' },
    2,
  )
  const db1 = resource('data-prod', 'db-1', 'Microsoft.Sql/servers', 'SQL Database', 200, { team: 'data' }, 3)
  const logs = resource('data-prod', 'st-logs', 'Microsoft.Storage/storageAccounts', 'Storage', 1.5, {}, 4)
  const spike = ESTATE_DAYS.indexOf(SPIKE_DAY)
  const drop = ESTATE_DAYS.indexOf(DROP_DAY)
  vm1.costs[spike]! *= options.spikeFactor ?? 5
  db1.costs[drop]! *= 0.1
  db1.costs[drop + 1]! *= 0.1
  logs.costs[spike]! *= 8
  return { days: ESTATE_DAYS, resources: [vm1, vm2, db1, logs], labels: [], decoys: [] }
}

/** Writes the estate as FOCUS CSV files (one per month) into a new temporary folder. */
export function writeFocusFiles(estate: Estate): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'costwatch-focus-'))
  return [...focusFiles(estate, 'EUR')].map(([month, text]) => {
    const file = join(dir, `focus-${month}.csv`)
    writeFileSync(file, text)
    return file
  })
}

/** The cost of the estate's resources from `from` to `to`, as written to the files (6 decimals), in cents. */
export function estateCost(estate: Estate, from: string, to: string, which: (r: Resource) => boolean = () => true) {
  let total = 0
  estate.days.forEach((day, d) => {
    if (day < from || day > to) return
    for (const r of estate.resources) if (which(r)) total += Number(r.costs[d]!.toFixed(6))
  })
  return Math.round(total * 100) / 100
}
