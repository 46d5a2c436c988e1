/** The small estate the fake Azure serves: two subscriptions, three groups, nine resources, a week of costs. */

export interface FakeSubscription {
  subscriptionId: string
  displayName: string
  state: string
  currency: string
}

export interface FakeResourceGroup {
  subscriptionId: string
  name: string
  location: string
  tags: Record<string, string>
}

/** One raw usage record; the fake sums them per the query's grouping, as Cost Management does. */
export interface FakeUsage {
  date: string
  subscriptionId: string
  /** '' for charges without a resource (purchases, taxes, subscription-wide plans). */
  resourceId: string
  /** '' for charges without a meter. */
  meterId: string
  meter: string
  serviceName: string
  /** Amortised cost in the subscription's currency. */
  cost: number
  /** Cost Management's ChargeType (Usage, Purchase, Refund, Tax, UnusedReservation...); Usage when absent. */
  chargeType?: string
}

/** A VM's CPU of one day: its 24 hours, or the day's average and maximum (spread over hours by `hourlyCpu`). */
export interface FakeCpuPoint {
  resourceId: string
  date: string
  average?: number
  maximum?: number
  hours?: { average: number; maximum: number }[]
}

/**
 * The 24 hourly values Monitor would hold for the day: the given hours, or a day whose peak hour reaches the
 * maximum and whose other 23 hours share the rest of the average evenly; hours without values when the VM was
 * deallocated.
 */
export function hourlyCpu(day: FakeCpuPoint): { average?: number; maximum?: number }[] {
  if (day.hours) return day.hours
  if (day.average === undefined) return Array.from({ length: 24 }, () => ({}))
  const peak = day.maximum ?? day.average
  const rest = (24 * day.average - peak) / 23
  return Array.from({ length: 24 }, (_, hour) =>
    hour === 14 ? { average: peak, maximum: peak } : { average: rest, maximum: rest },
  )
}

export interface FakeEstate {
  subscriptions: FakeSubscription[]
  resourceGroups: FakeResourceGroup[]
  /** As Resource Graph's `resources` table holds them (ARM-cased ids, lower-case types). */
  resources: Record<string, unknown>[]
  usage: FakeUsage[]
  cpu: FakeCpuPoint[]
}

export const SUB_PROD = '291bba3f-e0a5-47bc-a099-3bdcb2a50a05'
export const SUB_DEV = '72ac930a-f34e-42d8-b06d-dc2a9e12ed71'

const rg = (sub: string, name: string) => `/subscriptions/${sub}/resourceGroups/${name}`
export const IDS = {
  webVm: `${rg(SUB_PROD, 'RG-Web')}/providers/Microsoft.Compute/virtualMachines/web-vm-1`,
  batchVm: `${rg(SUB_PROD, 'RG-Web')}/providers/Microsoft.Compute/virtualMachines/batch-vm`,
  osDisk: `${rg(SUB_PROD, 'RG-Web')}/providers/Microsoft.Compute/disks/web-vm-1_OsDisk_1`,
  oldDisk: `${rg(SUB_PROD, 'RG-Data')}/providers/Microsoft.Compute/disks/old-data-disk`,
  webIp: `${rg(SUB_PROD, 'RG-Web')}/providers/Microsoft.Network/publicIPAddresses/web-ip`,
  spareIp: `${rg(SUB_PROD, 'RG-Web')}/providers/Microsoft.Network/publicIPAddresses/spare-ip`,
  emptyPlan: `${rg(SUB_PROD, 'RG-Web')}/providers/Microsoft.Web/serverFarms/empty-plan`,
  storage: `${rg(SUB_PROD, 'RG-Data')}/providers/Microsoft.Storage/storageAccounts/datastore01`,
  devVm: `${rg(SUB_DEV, 'rg-dev')}/providers/Microsoft.Compute/virtualMachines/dev-vm`,
}

const METERS = {
  d4s: { meterId: '0b0c2e3f-5a0f-4a8b-9f2d-6f1f8a2d3c01', meter: 'D4s v5', serviceName: 'Virtual Machines' },
  b2s: { meterId: '0b0c2e3f-5a0f-4a8b-9f2d-6f1f8a2d3c02', meter: 'B2s', serviceName: 'Virtual Machines' },
  p10: { meterId: '0b0c2e3f-5a0f-4a8b-9f2d-6f1f8a2d3c03', meter: 'P10 LRS Disk', serviceName: 'Storage' },
  s30: { meterId: '0b0c2e3f-5a0f-4a8b-9f2d-6f1f8a2d3c04', meter: 'S30 LRS Disk', serviceName: 'Storage' },
  ip: {
    meterId: '0b0c2e3f-5a0f-4a8b-9f2d-6f1f8a2d3c05',
    meter: 'Standard IPv4 Static Public IP',
    serviceName: 'Virtual Network',
  },
  p1v3: { meterId: '0b0c2e3f-5a0f-4a8b-9f2d-6f1f8a2d3c06', meter: 'P1 v3 App', serviceName: 'Azure App Service' },
  grs: { meterId: '0b0c2e3f-5a0f-4a8b-9f2d-6f1f8a2d3c07', meter: 'GRS Data Stored', serviceName: 'Storage' },
  reads: { meterId: '0b0c2e3f-5a0f-4a8b-9f2d-6f1f8a2d3c08', meter: 'Read Operations', serviceName: 'Storage' },
  defender: {
    meterId: '0b0c2e3f-5a0f-4a8b-9f2d-6f1f8a2d3c09',
    meter: 'Standard Node',
    serviceName: 'Microsoft Defender for Cloud',
  },
}

/** 2023-10-31 .. 2023-11-06: a day either side of the week the tests ask for, to show the window is honoured. */
export const DAYS = ['2023-10-31', '2023-11-01', '2023-11-02', '2023-11-03', '2023-11-04', '2023-11-05', '2023-11-06']

function vm(
  id: string,
  o: { size: string; os: 'Windows' | 'Linux'; power: 'running' | 'deallocated'; license?: string; tags?: object },
) {
  const [, , subscriptionId, , resourceGroup, , , , name] = id.split('/')
  return {
    id,
    name,
    type: 'microsoft.compute/virtualmachines',
    location: 'westeurope',
    subscriptionId,
    resourceGroup: resourceGroup?.toLowerCase(),
    tags: o.tags ?? {},
    sku: null,
    kind: '',
    managedBy: '',
    properties: {
      vmId: '7cbd6d2d-0000-4000-8000-000000000001',
      hardwareProfile: { vmSize: o.size },
      storageProfile: { osDisk: { osType: o.os, name: `${name}_OsDisk_1`, createOption: 'FromImage' } },
      ...(o.license ? { licenseType: o.license } : {}),
      provisioningState: 'Succeeded',
      extended: {
        instanceView: {
          powerState: { code: `PowerState/${o.power}`, level: 'Info', displayStatus: `VM ${o.power}` },
        },
      },
    },
  }
}

function resource(id: string, type: string, extra: Record<string, unknown>) {
  const parts = id.split('/')
  return {
    id,
    name: parts.at(-1),
    type,
    location: 'westeurope',
    subscriptionId: parts[2],
    resourceGroup: parts[4]?.toLowerCase(),
    tags: {},
    sku: null,
    kind: '',
    managedBy: '',
    ...extra,
  }
}

export function sampleEstate(): FakeEstate {
  const resources = [
    vm(IDS.webVm, { size: 'Standard_D4s_v5', os: 'Windows', power: 'running', tags: { env: 'prod', owner: 'web' } }),
    vm(IDS.batchVm, { size: 'Standard_E8s_v5', os: 'Linux', power: 'deallocated' }),
    vm(IDS.devVm, { size: 'Standard_B2s', os: 'Windows', power: 'running', license: 'Windows_Server' }),
    resource(IDS.osDisk, 'microsoft.compute/disks', {
      managedBy: IDS.webVm,
      sku: { name: 'Premium_LRS', tier: 'Premium' },
      properties: { diskSizeGB: 128, diskState: 'Attached', provisioningState: 'Succeeded' },
    }),
    resource(IDS.oldDisk, 'microsoft.compute/disks', {
      sku: { name: 'Standard_LRS', tier: 'Standard' },
      tags: { project: 'migration' },
      properties: { diskSizeGB: 1024, diskState: 'Unattached', provisioningState: 'Succeeded' },
    }),
    resource(IDS.webIp, 'microsoft.network/publicipaddresses', {
      sku: { name: 'Standard', tier: 'Regional' },
      properties: {
        ipAddress: '20.1.2.3',
        publicIPAllocationMethod: 'Static',
        ipConfiguration: {
          id: `${IDS.webVm.replace('virtualMachines/web-vm-1', 'networkInterfaces/web-nic')}/ipConfigurations/ipconfig1`,
        },
      },
    }),
    resource(IDS.spareIp, 'microsoft.network/publicipaddresses', {
      sku: { name: 'Standard', tier: 'Regional' },
      properties: { ipAddress: '20.1.2.4', publicIPAllocationMethod: 'Static' },
    }),
    resource(IDS.emptyPlan, 'microsoft.web/serverfarms', {
      kind: 'app',
      sku: { name: 'P1v3', tier: 'PremiumV3', size: 'P1v3', family: 'Pv3', capacity: 2 },
      properties: { status: 'Ready', numberOfSites: 0, maximumNumberOfWorkers: 30 },
    }),
    resource(IDS.storage, 'microsoft.storage/storageaccounts', {
      kind: 'StorageV2',
      sku: { name: 'Standard_GRS', tier: 'Standard' },
      tags: { env: 'prod' },
      properties: { provisioningState: 'Succeeded', accessTier: 'Hot' },
    }),
  ]

  const usage: FakeUsage[] = []
  DAYS.forEach((date, i) => {
    const add = (subscriptionId: string, resourceId: string, m: (typeof METERS)[keyof typeof METERS], cost: number) =>
      usage.push({ date, subscriptionId, resourceId, ...m, cost: Math.round(cost * 1e6) / 1e6 })
    add(SUB_PROD, IDS.webVm, METERS.d4s, 4.608 + i * 0.01)
    add(SUB_PROD, IDS.osDisk, METERS.p10, 0.66)
    add(SUB_PROD, IDS.oldDisk, METERS.s30, 1.32)
    add(SUB_PROD, IDS.webIp, METERS.ip, 0.12)
    add(SUB_PROD, IDS.spareIp, METERS.ip, 0.12)
    add(SUB_PROD, IDS.emptyPlan, METERS.p1v3, 5.47)
    add(SUB_PROD, IDS.storage, METERS.grs, 2.05 + i * 0.02)
    // Two records of one meter on one day: Cost Management returns them as one summed row.
    add(SUB_PROD, IDS.storage, METERS.reads, 0.013)
    add(SUB_PROD, IDS.storage, METERS.reads, 0.021)
    add(SUB_PROD, '', METERS.defender, 0.5) // a subscription-wide plan: no resource
    if (i % 2 === 0)
      usage.push({
        date,
        subscriptionId: SUB_PROD,
        resourceId: '',
        meterId: '',
        meter: '',
        serviceName: 'Marketplace',
        cost: 3,
      })
    add(SUB_DEV, IDS.devVm, METERS.b2s, 0.998)
  })

  const cpu: FakeCpuPoint[] = []
  DAYS.forEach((date, i) => {
    cpu.push({ resourceId: IDS.webVm, date, average: 35 + i, maximum: 80 + i })
    cpu.push({ resourceId: IDS.batchVm, date }) // deallocated: Monitor reports the day without values
    cpu.push({ resourceId: IDS.devVm, date, average: 2.5, maximum: 9 })
  })

  return {
    subscriptions: [
      { subscriptionId: SUB_PROD, displayName: 'Example Subscription', state: 'Enabled', currency: 'EUR' },
      { subscriptionId: SUB_DEV, displayName: 'Example Subscription2', state: 'Enabled', currency: 'USD' },
    ],
    resourceGroups: [
      { subscriptionId: SUB_PROD, name: 'RG-Web', location: 'westeurope', tags: { env: 'prod', costCenter: '4711' } },
      { subscriptionId: SUB_PROD, name: 'RG-Data', location: 'westeurope', tags: {} },
      { subscriptionId: SUB_DEV, name: 'rg-dev', location: 'northeurope', tags: { env: 'dev' } },
    ],
    resources,
    usage,
    cpu,
  }
}
