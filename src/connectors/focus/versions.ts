/**
 * FOCUS versions and providers: which version a file's columns are, the columns that were renamed between versions
 * (and the provider columns that became FOCUS ones), and which cloud a ProviderName names. Plain data and functions.
 */

export const FocusVersions = ['1.0', '1.1', '1.2'] as const
export type FocusVersion = (typeof FocusVersions)[number]

/**
 * Columns each version added to the one before (FOCUS changelog; AWS's "Migrating from FOCUS 1.0 to FOCUS 1.2"
 * lists 1.1's and 1.2's together). 1.3 columns (ServiceProviderName, HostProviderName) also count for 1.2, the
 * newest version this reader tells apart: a 1.3 file holds every 1.2 column.
 */
const ADDED: Record<Exclude<FocusVersion, '1.0'>, readonly string[]> = {
  '1.1': [
    'CapacityReservationId',
    'CapacityReservationStatus',
    'CommitmentDiscountQuantity',
    'CommitmentDiscountUnit',
    'ServiceSubcategory',
    'SkuMeter',
    'SkuPriceDetails',
  ],
  '1.2': [
    'BillingAccountType',
    'SubAccountType',
    'InvoiceId',
    'PricingCurrency',
    'PricingCurrencyContractedUnitPrice',
    'PricingCurrencyEffectiveCost',
    'PricingCurrencyListUnitPrice',
    'ServiceProviderName',
    'HostProviderName',
  ],
}

/**
 * The FOCUS version of a file's header. A version counts when more than half of the columns it added are there:
 * exporters write some newer columns ahead of time (Azure's FocusCost 1.0 export has 1.2's BillingAccountType and
 * SubAccountType), and a file with one or two of them is still the older version. 1.0 needs ChargeClass (new in
 * 1.0) beside ChargeCategory. Null: older than 1.0 (a 1.0-preview or 0.5 export) or not FOCUS-shaped.
 */
export function focusVersionOf(names: readonly string[]): FocusVersion | null {
  const present = new Set(names.map((n) => n.replace(/^\uFEFF/, '').trim()))
  const share = (columns: readonly string[]) => columns.filter((c) => present.has(c)).length / columns.length
  if (share(ADDED['1.2']) > 0.5) return '1.2'
  if (share(ADDED['1.1']) > 0.5) return '1.1'
  const category = present.has('ChargeCategory') || present.has('ChargeType')
  return category && present.has('ChargeClass') ? '1.0' : null
}

/**
 * Former names of the columns the reader reads: a column is looked up under its name, then under these, in order.
 * FOCUS 0.5/1.0-preview names (ChargeType, AmortizedCost, Region), provider columns that a later FOCUS version made
 * standard (Azure's x_SkuMeterName and AWS's x_UsageType became SkuMeter in 1.1/1.2, Azure's x_SkuDetails
 * SkuPriceDetails), and ProviderName, which 1.3 replaced with ServiceProviderName (both are read: the newer first).
 */
export const FORMER_NAMES: Readonly<Record<string, readonly string[]>> = {
  ChargeCategory: ['ChargeType'],
  EffectiveCost: ['AmortizedCost'],
  RegionId: ['Region'],
  SkuMeter: ['x_SkuMeterName', 'x_UsageType'],
  SkuPriceDetails: ['x_SkuDetails'],
}

export const Providers = ['AWS', 'Azure', 'GoogleCloud', 'Other'] as const
export type Provider = (typeof Providers)[number]

/**
 * The cloud that the ProviderName/ServiceProviderName values of an import name: AWS ("AWS", "Amazon Web Services"),
 * Azure ("Microsoft", "Azure"), Google Cloud ("Google Cloud"). Other when none of them is named, or when names
 * of two clouds are (one tenant holds one cloud's costs); names of other companies (marketplace sellers) beside one
 * cloud's name do not change it.
 */
export function providerOf(names: readonly string[]): Provider {
  const clouds = new Set<Provider>()
  for (const name of names) {
    const cloud = cloudOf(name)
    if (cloud !== null) clouds.add(cloud)
  }
  return clouds.size === 1 ? [...clouds][0]! : 'Other'
}

function cloudOf(name: string): Provider | null {
  const n = name.trim().toLowerCase()
  if (n === 'aws' || n.startsWith('amazon') || n.startsWith('aws ')) return 'AWS'
  if (n === 'microsoft' || n.startsWith('microsoft ') || n.includes('azure')) return 'Azure'
  if (n.startsWith('google')) return 'GoogleCloud'
  return null
}
