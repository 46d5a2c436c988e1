/** FOCUS rows of a small estate for the budgets' tests: VMs and databases with tags, in one subscription. */

export const BUDGET_SUB = '55555555-eeee-4eee-8eee-555555555555'

export const FOCUS_HEADER =
  'BilledCost,BillingCurrency,ChargeCategory,ChargeClass,ChargeDescription,ChargePeriodStart,EffectiveCost,ResourceId,ResourceName,ServiceName,SubAccountId,SubAccountName,Tags,x_ResourceGroupName,x_SkuMeterId'

/** A day's cost of a resource named `name` in `group`, billed under `service`, with FOCUS `tags` (a quoted JSON). */
export const focusLine = (
  day: string,
  group: string,
  name: string,
  service: string,
  tags: string,
  cost: string,
  category = 'Usage',
  currency = 'USD',
) =>
  [
    cost,
    currency,
    category,
    '',
    'meter',
    `${day}T00:00:00Z`,
    cost,
    `/subscriptions/${BUDGET_SUB}/resourcegroups/${group}/providers/microsoft.compute/virtualmachines/${name}`,
    name,
    service,
    `/subscriptions/${BUDGET_SUB}`,
    'Budgets',
    tags,
    group,
    `meter-${name}`,
  ].join(',')

export const PAYMENTS = '"{""Team"":""payments"",""env"":""prod""}"'
export const PAYMENTS_DEV = '"{""team"":""payments"",""env"":""dev""}"'
export const SEARCH = '"{""team"":""search"",""env"":""prod""}"'
