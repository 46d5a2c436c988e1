import { ownCopy } from '../../platform/text.js'
import { toDay } from '../../platform/time.js'
import type { ChargeCategory, ChargeClass } from '../types.js'
import { C, type ConformanceCounts, isIsoCurrency } from './conformance.js'
import {
  armTypeOfArmId,
  chargeCategoryOf,
  chargeClassOf,
  isMoney,
  meterIdOf,
  normaliseCurrency,
  normaliseSubscriptionId,
  parseInstant,
  parseMoney,
  parseTags,
  resourceGroupOfArmId,
  subscriptionOfArmId,
  type Tags,
} from './fields.js'
import { FORMER_NAMES } from './versions.js'

/** The FOCUS columns read, and how one row's cells become a FocusRow (the cell rules), for the aggregator in parse.ts. */
export const COLUMNS = [
  'BilledCost',
  'EffectiveCost',
  'BillingCurrency',
  'ChargePeriodStart',
  'ChargePeriodEnd',
  'BillingPeriodStart',
  'BillingPeriodEnd',
  'ListCost',
  'ContractedCost',
  'ServiceProviderName',
  'ProviderName',
  'ChargeCategory',
  'ChargeClass',
  'ChargeDescription',
  'SubAccountId',
  'SubAccountName',
  'ResourceId',
  'ResourceName',
  'ResourceType',
  'x_ResourceType',
  'x_ResourceGroupName',
  'RegionId',
  'RegionName',
  'Tags',
  'ServiceName',
  'ServiceCategory',
  'x_SkuMeterId',
  'SkuMeter',
  'SkuPriceId',
  'SkuId',
] as const
export type Column = (typeof COLUMNS)[number]

/** Columns without which no row can be read: all mandatory in FOCUS 1.0 to 1.2. */
export const REQUIRED: readonly (readonly Column[])[] = [
  ['ChargePeriodStart'],
  ['BillingCurrency'],
  ['SubAccountId'],
  ['ResourceId'],
  ['ServiceName'],
  ['EffectiveCost', 'BilledCost'],
  ['x_SkuMeterId', 'SkuPriceId', 'SkuId'],
]

/** One row's values after the cell rules; `tags` is null when the Tags text could not be read. */
export interface FocusRow {
  ms: number
  day: string
  /** `YYYY-MM`: the UTC month of BillingPeriodStart, else (no such column or no value) of ChargePeriodStart. */
  billingPeriod: string
  subscriptionId: string
  subscriptionName: string | null
  currency: string
  units: bigint
  usedBilledCost: boolean
  resourceId: string | null
  resourceName: string | null
  resourceType: string | null
  groupName: string | null
  location: string | null
  meterId: string
  meterName: string | null
  /** ServiceProviderName, else ProviderName. */
  provider: string | null
  chargeCategory: ChargeCategory
  chargeClass: ChargeClass | null
  serviceName: string
  tags: Tags | null
}

export type ColumnIndex = Record<Column, number> & { width: number }

/**
 * Where each column is; names match exactly, else ignoring case and stray spaces or a second BOM; a column not
 * there under its name is looked for under its former names (FORMER_NAMES). Other columns (`x_` ones included)
 * are left alone.
 */
export function readHeader(names: string[]): ColumnIndex | { missing: string[] } {
  const exact = new Map<string, number>()
  const loose = new Map<string, number>()
  names.forEach((name, i) => {
    if (!exact.has(name)) exact.set(name, i)
    const key = name
      .replace(/^\uFEFF/, '')
      .trim()
      .toLowerCase()
    if (!loose.has(key)) loose.set(key, i)
  })
  const index = unplacedColumns(names.length)
  const find = (name: string) => exact.get(name) ?? loose.get(name.toLowerCase())
  for (const column of COLUMNS) {
    let at = find(column)
    for (const former of FORMER_NAMES[column] ?? []) at ??= find(former)
    index[column] = at ?? -1
  }
  const missing = REQUIRED.filter((any) => any.every((c) => index[c] < 0)).map((any) => any.join(' or '))
  return missing.length > 0 ? { missing } : index
}

/**
 * A ColumnIndex with every column at -1, written out whole: its 31 properties set one by one by name turned the
 * object into a hash table (V8's dictionary mode), and readRow looks up about 25 of them per row.
 */
function unplacedColumns(width: number): ColumnIndex {
  return {
    width,
    BilledCost: -1,
    EffectiveCost: -1,
    BillingCurrency: -1,
    ChargePeriodStart: -1,
    ChargePeriodEnd: -1,
    BillingPeriodStart: -1,
    BillingPeriodEnd: -1,
    ListCost: -1,
    ContractedCost: -1,
    ServiceProviderName: -1,
    ProviderName: -1,
    ChargeCategory: -1,
    ChargeClass: -1,
    ChargeDescription: -1,
    SubAccountId: -1,
    SubAccountName: -1,
    ResourceId: -1,
    ResourceName: -1,
    ResourceType: -1,
    x_ResourceType: -1,
    x_ResourceGroupName: -1,
    RegionId: -1,
    RegionName: -1,
    Tags: -1,
    ServiceName: -1,
    ServiceCategory: -1,
    x_SkuMeterId: -1,
    SkuMeter: -1,
    SkuPriceId: -1,
    SkuId: -1,
  }
}

/**
 * The last or the known answers of the costly cell rules, per import. An export repeats the same few texts row
 * after row (a file is ordered by day, so ChargePeriodStart changes once per day; a subscription, currency and a
 * resource's tags change rarely): a string comparison or one map look-up replaces a regular expression, a Date
 * and JSON.parse. Only answers of valid cells are kept, so a bad cell is still reported on its own line.
 */
export interface CellMemo {
  start: string
  ms: number
  day: string
  /** The month of `day`, the billing period of rows without BillingPeriodStart. */
  month: string
  billingStart: string
  billingPeriod: string
  billingStartMs: number
  /** The last ChargePeriodEnd, BillingPeriodEnd and BillingCurrency texts checked, and what they were. */
  end: string
  endMs: number
  billingEnd: string
  billingEndMs: number
  isoText: string
  categoryExact: string
  subAccount: string
  subscriptionId: string
  currencyText: string
  currency: string
  categoryText: string
  category: ChargeCategory
  /** Tags by their text (copied, so a key does not keep its chunk of the file alive); emptied when full. */
  tags: Map<string, Tags>
}

/** Distinct ResourceIds whose keys are remembered at most (more resources than this are looked up again). */
export const MEMO_RESOURCES_MAX = 100_000

/** Distinct meter and service names kept as one copy each at most (see textOf). */
export const MEMO_TEXTS_MAX = 100_000

/** Distinct Tags texts remembered at most: an estate's resources with their tag sets, bounded whatever the size. */
export const MEMO_TAGS_MAX = 20_000

export function createCellMemo(): CellMemo {
  return {
    start: '',
    ms: 0,
    day: '',
    month: '',
    billingStart: '',
    billingPeriod: '',
    billingStartMs: 0,
    end: '',
    endMs: 0,
    billingEnd: '',
    billingEndMs: 0,
    isoText: '',
    categoryExact: '',
    subAccount: '',
    subscriptionId: '',
    currencyText: '',
    currency: '',
    categoryText: '',
    category: 'Usage',
    tags: new Map(),
  }
}

function instantOf(text: string, memo: CellMemo): number | null {
  if (text === memo.start) return memo.ms
  const ms = parseInstant(text)
  if (ms !== null) {
    memo.start = text
    memo.ms = ms
    memo.day = toDay(new Date(ms))
    memo.month = memo.day.slice(0, 7)
  }
  return ms
}

/** The billing period (`YYYY-MM`) of a BillingPeriodStart text, null when it is not a date-time. */
function billingPeriodOf(text: string, memo: CellMemo): string | null {
  if (text === memo.billingStart) return memo.billingPeriod
  const ms = parseInstant(text)
  if (ms === null) return null
  memo.billingStart = text
  memo.billingStartMs = ms
  memo.billingPeriod = toDay(new Date(ms)).slice(0, 7)
  return memo.billingPeriod
}

/** Milliseconds of a ChargePeriodEnd text (remembered: rows of a day share it), or null. */
function chargeEndOf(text: string, memo: CellMemo): number | null {
  if (text === memo.end) return memo.endMs
  const ms = parseInstant(text)
  if (ms !== null) {
    memo.end = text
    memo.endMs = ms
  }
  return ms
}

function billingEndOf(text: string, memo: CellMemo): number | null {
  if (text === memo.billingEnd) return memo.billingEndMs
  const ms = parseInstant(text)
  if (ms !== null) {
    memo.billingEnd = text
    memo.billingEndMs = ms
  }
  return ms
}

function currencyOf(text: string, memo: CellMemo): string | null {
  if (text === memo.currencyText) return memo.currency
  const currency = normaliseCurrency(text)
  if (currency !== null) {
    memo.currencyText = text
    memo.currency = currency
  }
  return currency
}

function subscriptionIdOf(subAccount: string, memo: CellMemo): string {
  if (subAccount !== memo.subAccount) {
    memo.subAccount = subAccount
    memo.subscriptionId = normaliseSubscriptionId(subAccount)
  }
  return memo.subscriptionId
}

/** The same Tags object for the same text: the rules make no difference between two parses of one text. */
function tagsOf(text: string | null, memo: CellMemo): Tags | null {
  if (text === null) return parseTags(text)
  const known = memo.tags.get(text)
  if (known) return known
  const tags = parseTags(text)
  if (tags !== null) {
    if (memo.tags.size >= MEMO_TAGS_MAX) memo.tags.clear()
    memo.tags.set(ownCopy(text), tags)
  }
  return tags
}

/**
 * A row's values after the cell rules, or the problems that leave it out. `failed` counts the FOCUS requirements
 * the row fails (conformance.ts), whether it is kept or not.
 */
export function readRow(
  record: string[],
  at: ColumnIndex,
  memo: CellMemo,
  failed: ConformanceCounts,
): { row: FocusRow } | { problems: string[] } {
  const problems: string[] = []

  const start = cellAt(record, at.ChargePeriodStart)
  const ms = start === null ? null : instantOf(start, memo)
  if (start === null) {
    problems.push('ChargePeriodStart is missing')
    failed[C.chargeStartNull]! += 1
  } else if (ms === null) {
    problems.push(`ChargePeriodStart ${JSON.stringify(start)} is not a date-time`)
    failed[C.chargeStartType]! += 1
  }
  const periods = checkPeriods(record, at, ms, memo, failed)

  const currencyText = cellAt(record, at.BillingCurrency)
  const currency = currencyText === null ? null : currencyOf(currencyText, memo)
  if (currencyText === null) {
    problems.push('BillingCurrency is missing')
    failed[C.currencyNull]! += 1
  } else {
    if (currency === null) problems.push(`BillingCurrency ${JSON.stringify(currencyText)} is not an ISO 4217 code`)
    if (currencyText !== memo.isoText) {
      if (isIsoCurrency(currencyText)) memo.isoText = currencyText
      else failed[C.currencyCode]! += 1
    }
  }

  const effectiveText = cellAt(record, at.EffectiveCost)
  const billedText = cellAt(record, at.BilledCost)
  if (effectiveText === null) failed[C.effectiveNull]! += 1
  if (billedText === null) failed[C.billedNull]! += 1
  if (cellAt(record, at.ListCost) === null) failed[C.listNull]! += 1
  if (cellAt(record, at.ContractedCost) === null) failed[C.contractedNull]! += 1
  const effective = readMoney(effectiveText, 'EffectiveCost', problems)
  if (effective === null) failed[C.effectiveDecimal]! += 1
  // BilledCost is only read when EffectiveCost is not there; else only checked: a bad one is still a problem.
  const billed = effective === undefined ? readMoney(billedText, 'BilledCost', problems) : undefined
  if (billed === null || (effective !== undefined && !checkMoney(billedText, 'BilledCost', problems)))
    failed[C.billedDecimal]! += 1
  // EffectiveCost is the figure (amortised); BilledCost stands in only when EffectiveCost is empty.
  const units = effective === undefined ? billed : effective
  if (effective === undefined && billed === undefined) problems.push('EffectiveCost and BilledCost are both missing')

  const resourceId = cellAt(record, at.ResourceId)
  const subAccount = cellAt(record, at.SubAccountId)
  // A row without SubAccountId can still be placed when its ResourceId is an ARM id.
  const subscriptionId = subAccount ? subscriptionIdOf(subAccount, memo) : resourceId && subscriptionOfArmId(resourceId)
  if (!subscriptionId) problems.push('SubAccountId is missing')

  const categoryText = cellAt(record, at.ChargeCategory)
  // x_SkuMeterId, when there, is the meter (meterIdOf's first rule): the other columns are then not read.
  const meterId =
    cellAt(record, at.x_SkuMeterId) ??
    meterIdOf({
      x_SkuMeterId: null,
      SkuPriceId: cellAt(record, at.SkuPriceId),
      SkuId: cellAt(record, at.SkuId),
      ChargeDescription: cellAt(record, at.ChargeDescription),
      ChargeCategory: categoryText,
    })
  if (meterId === null)
    problems.push('no column identifies the meter (x_SkuMeterId, SkuPriceId, SkuId, ChargeDescription)')

  const chargeCategory = categoryText === memo.categoryText ? memo.category : chargeCategoryOf(categoryText)
  if (chargeCategory === null)
    problems.push(`ChargeCategory ${JSON.stringify(categoryText)} is not Usage, Purchase, Tax, Credit or Adjustment`)
  else if (categoryText !== null) {
    memo.categoryText = categoryText
    memo.category = chargeCategory
  }
  // Conformance wants the values as spelled; the reader also takes them in another case (and an empty one as Usage).
  if (categoryText === null) failed[C.categoryNull]! += 1
  else if (categoryText !== memo.categoryExact) {
    if (chargeCategory === categoryText) memo.categoryExact = categoryText
    else failed[C.categoryAllowed]! += 1
  }
  const classText = cellAt(record, at.ChargeClass)
  const chargeClass = chargeClassOf(classText)
  if (chargeClass === undefined) problems.push(`ChargeClass ${JSON.stringify(classText)} is not Correction`)
  if (classText !== null && classText !== 'Correction') failed[C.classAllowed]! += 1
  // Corrections may charge a period before the bill's: only other rows are held to their billing period.
  if (
    (periods & BILLING_BOUNDS) !== 0 &&
    ms !== null &&
    classText !== 'Correction' &&
    (ms < memo.billingStartMs || ms >= memo.billingEndMs)
  )
    failed[C.chargeInBillingPeriod]! += 1

  if (
    problems.length > 0 ||
    ms === null ||
    currency === null ||
    units == null ||
    !subscriptionId ||
    meterId === null ||
    chargeCategory === null ||
    chargeClass === undefined
  ) {
    return { problems }
  }
  const xType = cellAt(record, at.x_ResourceType)
  const billingPeriod = (periods & BILLING_START) !== 0 ? memo.billingPeriod : memo.month
  return {
    row: {
      ms,
      day: memo.day,
      billingPeriod,
      subscriptionId,
      subscriptionName: cellAt(record, at.SubAccountName),
      currency,
      units,
      usedBilledCost: effective === undefined,
      resourceId,
      resourceName: cellAt(record, at.ResourceName),
      resourceType:
        xType?.toLowerCase() ?? (resourceId && armTypeOfArmId(resourceId)) ?? cellAt(record, at.ResourceType),
      groupName: cellAt(record, at.x_ResourceGroupName) ?? (resourceId && resourceGroupOfArmId(resourceId)),
      location: cellAt(record, at.RegionId) ?? cellAt(record, at.RegionName),
      meterId,
      meterName: cellAt(record, at.SkuMeter) ?? cellAt(record, at.ChargeDescription),
      provider: cellAt(record, at.ServiceProviderName) ?? cellAt(record, at.ProviderName),
      chargeCategory,
      chargeClass,
      serviceName: cellAt(record, at.ServiceName) ?? cellAt(record, at.ServiceCategory) ?? 'Other',
      tags: tagsOf(cellAt(record, at.Tags), memo),
    },
  }
}

/**
 * The text of the cell at `position` (-1: the column is not in the file), null when empty: Azure writes nulls as
 * empty fields, the FinOps Foundation sample as the bare word NULL. readRow names each column as a property of its
 * ColumnIndex (one shape for every file: a load the compiler keeps inline), where looking columns up by a name
 * given at run time took a tenth of a reader's time.
 */
function cellAt(record: string[], position: number): string | null {
  const value = position < 0 ? undefined : record[position]?.trim()
  return value === undefined || value === '' || value === 'NULL' ? null : value
}

/** What checkPeriods found: BillingPeriodStart is a date-time (its period in memo.billingPeriod)... */
const BILLING_START = 1
/** ...and BillingPeriodEnd one after it (both in memo.billingStartMs and billingEndMs). */
const BILLING_BOUNDS = 2

/**
 * Counts the row's failures of the period requirements (ChargePeriodEnd, BillingPeriodStart and End); none of them
 * leaves a row out. Returns what it found of the billing period (BILLING_START, BILLING_BOUNDS).
 */
function checkPeriods(
  record: string[],
  at: ColumnIndex,
  start: number | null,
  memo: CellMemo,
  failed: ConformanceCounts,
): number {
  const endText = cellAt(record, at.ChargePeriodEnd)
  if (endText === null) failed[C.chargeEndNull]! += 1
  else {
    const end = chargeEndOf(endText, memo)
    if (end === null) failed[C.chargeEndType]! += 1
    else if (start !== null && end <= start) failed[C.chargeEndAfterStart]! += 1
  }
  const billingStartText = cellAt(record, at.BillingPeriodStart)
  const billingEndText = cellAt(record, at.BillingPeriodEnd)
  let startKnown = false
  if (billingStartText === null) failed[C.billingStartNull]! += 1
  else if (billingPeriodOf(billingStartText, memo) === null) failed[C.billingStartType]! += 1
  else startKnown = true
  let endKnown = false
  if (billingEndText === null) failed[C.billingEndNull]! += 1
  else if (billingEndOf(billingEndText, memo) === null) failed[C.billingEndType]! += 1
  else endKnown = true
  if (!startKnown) return 0
  if (!endKnown) return BILLING_START
  if (memo.billingEndMs <= memo.billingStartMs) {
    failed[C.billingEndAfterStart]! += 1
    return BILLING_START
  }
  return BILLING_START | BILLING_BOUNDS
}

/** Money units; undefined when the cell is empty, null (and a problem noted) when it holds something else. */
function readMoney(text: string | null, column: Column, problems: string[]): bigint | null | undefined {
  if (text === null) return undefined
  const units = parseMoney(text)
  if (units === null) problems.push(`${column} ${JSON.stringify(text)} is not a number`)
  return units
}

/** As readMoney without the units: notes a problem when the cell holds something other than a number (false). */
function checkMoney(text: string | null, column: Column, problems: string[]): boolean {
  if (text === null || isMoney(text)) return true
  problems.push(`${column} ${JSON.stringify(text)} is not a number`)
  return false
}
