/**
 * The FOCUS requirements each row is checked against, and the count of rows failing each. Ids are those of the
 * FOCUS requirements model (the FinOps Foundation's focus_validator, model-1.2.json) where one states the check;
 * the two checks it has no rule for have ids of their own, in the same style without the level suffix. A failure
 * is only counted: whether a row is kept is decided by the reader's own rules (row.ts), as before.
 * docs/focus.md lists them for users: keep the two in step.
 */

export interface ConformanceResult {
  requirement: string
  description: string
  failedRows: number
}

/** Every requirement checked, in report order; `C` below numbers them. */
export const REQUIREMENTS = [
  ['BilledCost-C-003-M', 'BilledCost MUST NOT be null.'],
  ['BilledCost-C-004-M', 'BilledCost MUST be a valid decimal value.'],
  ['EffectiveCost-C-003-M', 'EffectiveCost MUST NOT be null.'],
  ['EffectiveCost-C-004-M', 'EffectiveCost MUST be a valid decimal value.'],
  ['ListCost-C-003-M', 'ListCost MUST NOT be null.'],
  ['ContractedCost-C-003-M', 'ContractedCost MUST NOT be null.'],
  ['BillingCurrency-C-004-M', 'BillingCurrency MUST NOT be null.'],
  [
    'BillingCurrency-C-003-M',
    'BillingCurrency MUST be one ISO 4217 currency code (three upper-case letters of a currency ISO 4217 defines).',
  ],
  ['ChargeCategory-C-002-M', 'ChargeCategory MUST NOT be null.'],
  [
    'ChargeCategory-C-003-M',
    'ChargeCategory MUST be one of the allowed values: Usage, Purchase, Tax, Credit, Adjustment (as spelled).',
  ],
  ['ChargeClass-C-005-C', 'ChargeClass MUST be "Correction" when it is not null.'],
  ['ChargePeriodStart-C-003-M', 'ChargePeriodStart MUST NOT be null.'],
  ['ChargePeriodStart-C-001-M', 'ChargePeriodStart MUST be of type Date/Time.'],
  ['ChargePeriodEnd-C-003-M', 'ChargePeriodEnd MUST NOT be null.'],
  ['ChargePeriodEnd-C-001-M', 'ChargePeriodEnd MUST be of type Date/Time.'],
  [
    'ChargePeriodEnd-C-004-M',
    'ChargePeriodEnd MUST be the exclusive end bound of the charge period: it is after ChargePeriodStart.',
  ],
  ['BillingPeriodStart-C-003-M', 'BillingPeriodStart MUST NOT be null.'],
  ['BillingPeriodStart-C-001-M', 'BillingPeriodStart MUST be of type Date/Time.'],
  ['BillingPeriodEnd-C-003-M', 'BillingPeriodEnd MUST NOT be null.'],
  ['BillingPeriodEnd-C-001-M', 'BillingPeriodEnd MUST be of type Date/Time.'],
  [
    'BillingPeriodEnd-C-004-M',
    'BillingPeriodEnd MUST be the exclusive end bound of the billing period: it is after BillingPeriodStart.',
  ],
  [
    'ChargePeriodStart-InBillingPeriod',
    'ChargePeriodStart is within the billing period (at or after BillingPeriodStart, before BillingPeriodEnd) ' +
      'unless ChargeClass is "Correction" (a correction of an earlier period).',
  ],
] as const satisfies readonly (readonly [string, string])[]

/** Positions of the requirements in REQUIREMENTS and in a count array. */
export const C = {
  billedNull: 0,
  billedDecimal: 1,
  effectiveNull: 2,
  effectiveDecimal: 3,
  listNull: 4,
  contractedNull: 5,
  currencyNull: 6,
  currencyCode: 7,
  categoryNull: 8,
  categoryAllowed: 9,
  classAllowed: 10,
  chargeStartNull: 11,
  chargeStartType: 12,
  chargeEndNull: 13,
  chargeEndType: 14,
  chargeEndAfterStart: 15,
  billingStartNull: 16,
  billingStartType: 17,
  billingEndNull: 18,
  billingEndType: 19,
  billingEndAfterStart: 20,
  chargeInBillingPeriod: 21,
} as const

/** Rows failing each requirement, by position in REQUIREMENTS. */
export type ConformanceCounts = number[]

export function createConformanceCounts(): ConformanceCounts {
  return new Array<number>(REQUIREMENTS.length).fill(0)
}

export function addConformanceCounts(into: ConformanceCounts, from: readonly number[]): void {
  for (let i = 0; i < into.length; i++) into[i]! += from[i] ?? 0
}

export function conformanceReport(counts: readonly number[]): ConformanceResult[] {
  return REQUIREMENTS.map(([requirement, description], i) => ({ requirement, description, failedRows: counts[i]! }))
}

/** ISO 4217 codes as this runtime's ICU knows them (current and historic), for the currency-code check. */
const ISO_CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'))

/** True when the text is exactly one ISO 4217 code (upper case, no spaces). */
export function isIsoCurrency(text: string): boolean {
  return text.length === 3 && ISO_CURRENCIES.has(text)
}
