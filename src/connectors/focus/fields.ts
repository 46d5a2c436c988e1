/**
 * Cell-level rules for FOCUS cost exports: one small function per column family, no I/O. `parse.ts` applies
 * them row by row; they are exported on their own so the rules can be tested (and reused) as plain data.
 */

import { utcMillis } from '../../platform/time.js'
import { ChargeCategories, type ChargeCategory, type ChargeClass } from '../types.js'

/** Decimal places kept when money is summed: Azure writes up to 28 significant digits, a double keeps 17. */
export const MONEY_SCALE = 20
const SCALE_FACTOR = 10n ** BigInt(MONEY_SCALE)

/** 10^n as bigints for the shifts money text needs (a BigInt power per cell was a tenth of reading a row). */
const POWERS_OF_TEN = Array.from({ length: 2 * MONEY_SCALE + 1 }, (_, n) => 10n ** BigInt(n))
const powerOfTen = (n: number): bigint => POWERS_OF_TEN[n] ?? 10n ** BigInt(n)

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,3}))?$/

/**
 * A decimal as an integer count of 10^-MONEY_SCALE units, or null when the text is not a number. Money is summed
 * in these units so a day's total does not depend on row order and 28-digit values lose nothing that matters.
 */
export function parseMoney(text: string): bigint | null {
  const plain = plainMoney(text)
  if (plain !== undefined) return plain
  const m = DECIMAL.exec(text.trim())
  if (!m) return null
  const [, sign = '', whole = '', fraction = '', exp = '0'] = m
  if (whole === '' && fraction === '') return null
  const digits = BigInt(`${whole}${fraction}` || '0')
  const shift = MONEY_SCALE + Number(exp) - fraction.length
  let units: bigint
  if (shift >= 0) units = digits * powerOfTen(shift)
  else {
    // Round half away from zero when the text has more decimals than we keep.
    const divisor = powerOfTen(-shift)
    units = (digits + divisor / 2n) / divisor
  }
  return sign === '-' ? -units : units
}

/** True when `parseMoney` reads the text (without converting it: a cell that is only checked costs no BigInt). */
export function isMoney(text: string): boolean {
  if (plainMoney(text, false) !== undefined) return true
  const m = DECIMAL.exec(text.trim())
  return m !== null && (m[2] ?? '') + (m[3] ?? '') !== ''
}

/**
 * parseMoney of the form nearly every cell has, read without a regular expression or a string per cell: an
 * optional minus, then at most 15 digits (exact in a double) around at most one point. Undefined for any other
 * form (a plus sign, an exponent, spaces, more digits, not a number), which the general rule reads. With `units`
 * false, only whether the form is this one (0n stands for any amount).
 */
function plainMoney(text: string, units = true): bigint | undefined {
  const length = text.length
  let i = length > 0 && text.charCodeAt(0) === MINUS ? 1 : 0
  const negative = i === 1
  let value = 0
  let digits = 0
  let decimals = -1
  for (; i < length; i++) {
    const c = text.charCodeAt(i)
    if (c >= ZERO && c <= NINE) {
      value = value * 10 + (c - ZERO)
      digits++
    } else if (c === POINT && decimals < 0) decimals = digits
    else return undefined
  }
  if (digits === 0 || digits > 15) return undefined
  if (!units) return 0n
  const scaled = BigInt(value) * powerOfTen(MONEY_SCALE - (decimals < 0 ? 0 : digits - decimals))
  return negative ? -scaled : scaled
}
const EXACT_DECIMALS = 10
const EXACT_FACTOR = 10n ** BigInt(MONEY_SCALE - EXACT_DECIMALS)
const EXACT_DIVISOR = 10 ** EXACT_DECIMALS
const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER)
const MINUS = 0x2d
const POINT = 0x2e
const ZERO = 0x30
const NINE = 0x39

/**
 * Units of 10^-MONEY_SCALE back to a number, the double nearest to the amount. Most amounts have at most
 * EXACT_DECIMALS decimals and fewer than 2^53 such hundredths-of-a-cent: then the amount is an integer over a power
 * of ten, both exact doubles, and one division rounds to the nearest. Others go through their decimal text, which
 * Number() rounds to the nearest (what every amount took before: 0.15 s of each FOCUS reader thread for the
 * benchmark's 553,000 rows).
 */
export function moneyToNumber(units: bigint): number {
  const exact = units / EXACT_FACTOR
  if (exact * EXACT_FACTOR === units && exact <= MAX_EXACT && exact >= -MAX_EXACT) return Number(exact) / EXACT_DIVISOR
  const negative = units < 0n
  const abs = negative ? -units : units
  const whole = abs / SCALE_FACTOR
  const fraction = (abs % SCALE_FACTOR).toString().padStart(MONEY_SCALE, '0')
  return Number(`${negative ? '-' : ''}${whole}.${fraction}`)
}

const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(?:([Zz])|([+-])(\d{2}):?(\d{2})?)?$/

/**
 * Milliseconds since the epoch of a FOCUS date-time, or null. Azure writes `2025-10-16T00:00:00Z`; the FinOps
 * Foundation sample writes `2024-09-18 22:00:00` (no zone, which FOCUS defines as UTC); an offset is honoured.
 */
export function parseInstant(text: string): number | null {
  const m = INSTANT.exec(text.trim())
  if (!m) return null
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((v) => Number(v ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  const local = utcMillis(year, month, day, hour, minute, second)
  if (local === null) return null
  const offsetMinutes = m[8] ? (m[8] === '-' ? -1 : 1) * (Number(m[9]) * 60 + Number(m[10] ?? 0)) : 0
  return local - offsetMinutes * 60_000
}

const SUBSCRIPTION_PATH = /^\/subscriptions\/([^/]+)\/?$/i
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * The subscription id of a SubAccountId: Azure writes the ARM path `/subscriptions/{guid}`; the store keeps the
 * bare lower-case GUID. Other providers' account ids (AWS account numbers) are kept as written.
 */
export function normaliseSubscriptionId(subAccountId: string): string {
  const id = subAccountId.trim()
  const bare = SUBSCRIPTION_PATH.exec(id)?.[1] ?? id
  return GUID.test(bare) ? bare.toLowerCase() : bare
}

/** True for an Azure ARM id, which compares case-insensitively (a ResourceId from another cloud does not). */
export function isArmId(id: string): boolean {
  return /^\/subscriptions\//i.test(id)
}

/** The subscription GUID inside an ARM id, lower-cased, or null. */
export function subscriptionOfArmId(armId: string): string | null {
  const guid = /^\/subscriptions\/([^/]+)/i.exec(armId)?.[1]
  return guid ? normaliseSubscriptionId(guid) : null
}

/** The resource-group segment of an ARM id as written there (Azure lower-cases it in FOCUS ResourceIds), or null. */
export function resourceGroupOfArmId(armId: string): string | null {
  if (!isArmId(armId)) return null
  return /^\/subscriptions\/[^/]+\/resourcegroups\/([^/]+)/i.exec(armId)?.[1] ?? null
}

/**
 * The ARM type of an ARM id, lower-cased: `microsoft.compute/virtualmachines`, or for a child resource
 * `microsoft.sql/servers/databases`. Null when the id names no provider resource.
 */
export function armTypeOfArmId(armId: string): string | null {
  if (!isArmId(armId)) return null
  const parts = armId.split('/')
  const at = parts.map((p) => p.toLowerCase()).lastIndexOf('providers')
  if (at < 0 || at + 3 > parts.length) return null
  const namespace = parts[at + 1]!
  // After the namespace the segments alternate type, name, type, name...
  const types = parts.slice(at + 2).filter((_, i) => i % 2 === 0)
  return [namespace, ...types].join('/').toLowerCase()
}

/** The last segment of a resource id (its name in ARM ids and most ARNs). */
export function lastSegmentOf(id: string): string {
  const trimmed = id.replace(/\/+$/, '')
  // An ARN's resource is `type/id`, `type:id` or the id alone (`arn:aws:s3:::bucket`).
  const end = trimmed.startsWith('arn:') && !trimmed.includes('/') ? trimmed.lastIndexOf(':') : trimmed.lastIndexOf('/')
  return trimmed.slice(end + 1)
}

export type Tags = Record<string, string>

/**
 * The Tags column: a JSON object (its quotes doubled by CSV quoting, which the CSV reader undoes). Also read: the
 * members without braces (`"env": "prod","team": "a"`), as Azure's older cost-details files write them, and an
 * object encoded twice as a JSON string. Keys are kept exactly (the FinOps sample has both `org` and ` org`);
 * numbers and booleans become strings, other values are dropped. Null when unreadable.
 */
export function parseTags(text: string | null): Tags | null {
  const trimmed = text?.trim() ?? ''
  if (trimmed === '') return {}
  let value = parseJson(trimmed)
  if (typeof value === 'string') value = parseJson(value)
  else if (value === undefined && !trimmed.startsWith('{')) value = parseJson(`{${trimmed}}`)
  if (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) return null
  const tags: Tags = {}
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === 'string') tags[key] = v
    else if (typeof v === 'number' || typeof v === 'boolean') tags[key] = String(v)
  }
  return tags
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The FOCUS columns that identify a meter, null when empty. */
export interface MeterColumns {
  x_SkuMeterId: string | null
  SkuPriceId: string | null
  SkuId: string | null
  ChargeDescription: string | null
  ChargeCategory: string | null
}

/**
 * A row's meter (contract section 6): x_SkuMeterId, else SkuPriceId, else SkuId with ChargeDescription, since one
 * SkuId can cover two meters of the same resource and day. Rows with no SKU at all (taxes, some purchases and
 * credits) are told apart by category and description. Null when nothing identifies the charge.
 */
export function meterIdOf(c: MeterColumns): string | null {
  if (c.x_SkuMeterId) return c.x_SkuMeterId
  if (c.SkuPriceId) return c.SkuPriceId
  if (c.SkuId) return c.ChargeDescription ? `${c.SkuId}|${c.ChargeDescription}` : c.SkuId
  if (c.ChargeCategory || c.ChargeDescription) return `${c.ChargeCategory ?? ''}|${c.ChargeDescription ?? ''}`
  return null
}

/**
 * A row's FOCUS ChargeCategory in its canonical spelling (matched ignoring case): Usage when the cell is empty
 * (files written before the column was mandatory), null when the text is none of the five categories.
 */
export function chargeCategoryOf(text: string | null): ChargeCategory | null {
  if (text === null) return 'Usage'
  const wanted = text.trim().toLowerCase()
  return ChargeCategories.find((c) => c.toLowerCase() === wanted) ?? null
}

/** A row's FOCUS ChargeClass: 'Correction', or null for none; undefined when the text is something else. */
export function chargeClassOf(text: string | null): ChargeClass | null | undefined {
  if (text === null) return null
  return text.trim().toLowerCase() === 'correction' ? 'Correction' : undefined
}

/** ISO 4217 code in upper case, or null when the text is not one. */
export function normaliseCurrency(text: string): string | null {
  const code = text.trim().toUpperCase()
  return /^[A-Z]{3}$/.test(code) ? code : null
}
