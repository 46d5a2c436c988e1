import { isAscii } from 'node:buffer'
import { createReadStream } from 'node:fs'
import { pipeline, Readable } from 'node:stream'
import { createGunzip } from 'node:zlib'
import { ownCopy } from '../../platform/text.js'
import { toDay } from '../../platform/time.js'
import {
  type ChargeCategory,
  type ChargeClass,
  type CostRowKey,
  type DailyCostRow,
  type KeyedCostRows,
  type ResourceGroupItem,
  type ResourceItem,
  type SubscriptionItem,
  toDailyCostRows,
} from '../types.js'
import { createCsvReader } from './csv.js'
import {
  armTypeOfArmId,
  chargeCategoryOf,
  chargeClassOf,
  isArmId,
  isMoney,
  lastSegmentOf,
  meterIdOf,
  moneyToNumber,
  normaliseCurrency,
  normaliseSubscriptionId,
  parseInstant,
  parseMoney,
  parseTags,
  resourceGroupOfArmId,
  subscriptionOfArmId,
  type Tags,
} from './fields.js'

/**
 * Reads FOCUS 1.0/1.1 cost exports (CSV, plain or gzip) as Azure Cost Management and the FinOps Foundation write
 * them, and sums them while streaming, a chunk at a time. Held alone, memory grows with the distinct (resource,
 * day, meter) keys; an import that writes the sums away as it goes (`afterChunk` and `takeCosts`) holds only a
 * batch and the inventory, whatever the size of the files. Bad rows become line-numbered issues and are left out
 * of the sums.
 */

/** A path, or the bytes of one file (a stream or any async iterable of chunks). */
export type FocusInput = string | Readable | AsyncIterable<Uint8Array>

/** A problem in a file. `line` is the physical line (the header is line 1); 0 means the file as a whole. */
export interface FocusIssue {
  file: string
  line: number
  message: string
}

export interface FocusParseOptions {
  /** The name issues give a stream input; a path names itself. */
  fileName?: string
  /** Errors and warnings kept, each; the rest are only counted, so a broken huge file cannot fill memory. */
  maxIssues?: number
  /**
   * Awaited after each chunk of a file is read (reading waits for it): where a streaming import writes away
   * the costs summed so far (`takeCosts`) and reports progress.
   */
  afterChunk?: (at: { file: string; rowsRead: number; pendingCosts: number }) => Promise<void> | void
  /**
   * Where the keys of the rows read are kept: aggregators that read files one after another (a reader thread's)
   * share one (createCostKeys), so a key is one object for all their files. Each aggregator has its own otherwise.
   */
  costKeys?: CostKeys
  /**
   * Whether a billing currency other than the first is an error here (the default). False where a file is read
   * on its own as part of a larger import: the import's aggregator checks the currencies when it absorbs the file.
   */
  checkCurrencies?: boolean
}

export interface FocusParseResult {
  /** Summed by (subscription, resource, UTC day, meter, charge category and class, currency). */
  costs: DailyCostRow[]
  subscriptions: SubscriptionItem[]
  /** One per (subscription, lower-cased name), in the first spelling seen. */
  resourceGroups: ResourceGroupItem[]
  /** ARM resources in a resource group, tags from their latest row. Other ResourceIds appear only in costs. */
  resources: ResourceItem[]
  /** Rows left out, header problems, unreadable files and mixed currencies. */
  errors: FocusIssue[]
  errorCount: number
  /** Rows kept with a caveat (unreadable tags, BilledCost used for a missing EffectiveCost). */
  warnings: FocusIssue[]
  warningCount: number
  /** Data rows read (not headers), bad ones included. */
  rowsRead: number
  rowsRejected: number
  /** The billing currency when every kept row has the same one; null when there were none or several. */
  currency: string | null
  /** Every billing currency seen, in order of first appearance. */
  currencies: string[]
}

/**
 * What one file read on its own contributes to an import besides its costs (see `part` and `absorb`): a reader
 * thread sends it once the file is read and its costs taken. Its resources keep when their tags were seen, and its
 * currencies where each was first seen, in order of first appearance.
 */
export interface FocusFilePart extends Omit<FocusParseResult, 'costs' | 'resources' | 'currency' | 'currencies'> {
  resources: ResourceEntry[]
  currencies: [string, FocusIssue][]
}

/** FOCUS says nothing of a subscription's state; the inventory keeps what ARM reports when it has it. */
export const UNKNOWN_SUBSCRIPTION_STATE = 'Unknown'

const COLUMNS = [
  'BilledCost',
  'EffectiveCost',
  'BillingCurrency',
  'ChargePeriodStart',
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
  'x_SkuMeterName',
  'SkuPriceId',
  'SkuId',
] as const
type Column = (typeof COLUMNS)[number]

/** Columns without which no row can be read: all mandatory in FOCUS 1.0 and 1.1. */
const REQUIRED: readonly (readonly Column[])[] = [
  ['ChargePeriodStart'],
  ['BillingCurrency'],
  ['SubAccountId'],
  ['ResourceId'],
  ['ServiceName'],
  ['EffectiveCost', 'BilledCost'],
  ['x_SkuMeterId', 'SkuPriceId', 'SkuId'],
]

/** Parses one file. */
export async function parseFocusFile(input: FocusInput, options: FocusParseOptions = {}): Promise<FocusParseResult> {
  const aggregator = createFocusAggregator(options)
  await aggregator.addFile(input, options.fileName)
  return aggregator.result()
}

/** Parses the files of one import (e.g. the partitions of one export): rows of the same key are summed across them. */
export async function parseFocusFiles(
  inputs: readonly string[],
  options: Omit<FocusParseOptions, 'fileName'> = {},
): Promise<FocusParseResult> {
  const aggregator = createFocusAggregator(options)
  for (const input of inputs) await aggregator.addFile(input)
  return aggregator.result()
}

/** A key's cost of one day so far. */
interface CostEntry {
  key: CostRowKey
  date: string
  units: bigint
}

/**
 * One meter of one resource: its keys (one per charge category and class, currency, subscription and
 * description), kept for the whole import so that every row of a key holds the same object, and the entries not
 * yet taken, in day order.
 */
export interface MeterCosts {
  keys: CostRowKey[]
  entries: CostEntry[]
  /** The aggregator whose entries these are: another one sharing the keys starts them anew. */
  owner: object
}

export interface ResourceEntry extends ResourceItem {
  /** ChargePeriodStart of the row the tags came from. */
  tagsAt: number
}

/** Resource key -> meter -> its keys and its sums not yet taken (see createFocusAggregator). */
export type CostKeys = Map<string, Map<string, MeterCosts>>

/** Keys for aggregators to share (FocusParseOptions.costKeys). */
export function createCostKeys(): CostKeys {
  return new Map()
}

/** Accumulates any number of files into one result; files are read one at a time. */
export function createFocusAggregator(options: Omit<FocusParseOptions, 'fileName'> = {}) {
  const maxIssues = options.maxIssues ?? 1000
  // Resource key ('' for charges without one) -> meter -> its keys and the sums not yet taken, one entry per
  // (day, charge category and class, currency, subscription), a few at most. Two look-ups of texts the row already
  // has, where one key of seven joined texts per row made a new string per row to hash. `pending`: the meters
  // with entries, in the order they got their first.
  const costs: CostKeys = options.costKeys ?? createCostKeys()
  const owner = {}
  let pending: MeterCosts[] = []
  let pendingCosts = 0
  const subscriptions = new Map<string, SubscriptionItem>()
  const groups = new Map<string, ResourceGroupItem>()
  const resources = new Map<string, ResourceEntry>()
  const currencies = new Map<string, FocusIssue>()
  const errors: FocusIssue[] = []
  const warnings: FocusIssue[] = []
  let errorCount = 0
  let warningCount = 0
  let rowsRead = 0
  let rowsRejected = 0

  const memo = createCellMemo()

  const error = (issue: FocusIssue) => {
    if (errorCount++ < maxIssues) errors.push(issue)
  }
  const warn = (issue: FocusIssue) => {
    if (warningCount++ < maxIssues) warnings.push(issue)
  }

  // ResourceIds seen, each with its key (lower-cased when an ARM id): one look-up per row instead of a regular
  // expression and a lower-cased copy. Keys are own copies, so nothing kept points into a chunk of the file.
  const resourceKeys = new Map<string, { id: string; key: string; arm: boolean }>()
  function resourceKeyOf(resourceId: string): { id: string; key: string; arm: boolean } {
    let known = resourceKeys.get(resourceId)
    if (known === undefined) {
      const arm = isArmId(resourceId)
      const id = ownCopy(resourceId)
      known = { id, key: ownCopy(arm ? resourceId.toLowerCase() : resourceId), arm }
      if (resourceKeys.size >= MEMO_RESOURCES_MAX) resourceKeys.clear()
      resourceKeys.set(id, known)
    }
    return known
  }

  // Meter and service names, one own copy of each: a copy per summed row made two strings each, and gave whoever
  // numbers the rows' texts (a reader's batches) a new string to hash every time.
  const texts = new Map<string, string>()
  function textOf(text: string): string {
    let own = texts.get(text)
    if (own === undefined) {
      if (texts.size >= MEMO_TEXTS_MAX) texts.clear()
      own = ownCopy(text)
      texts.set(own, own)
    }
    return own
  }

  /** The group of a row in its first spelling: Azure names are case-insensitive and FOCUS rows vary in case. */
  // Groups by subscription and the name exactly as written: two look-ups per row, where the key below
  // lower-cases and joins two strings. Names are own copies (see ownCopy).
  const groupsBySpelling = new Map<string, Map<string, ResourceGroupItem>>()
  function groupOf(subscriptionId: string, name: string): ResourceGroupItem {
    let spellings = groupsBySpelling.get(subscriptionId)
    if (spellings === undefined) {
      spellings = new Map()
      groupsBySpelling.set(ownCopy(subscriptionId), spellings)
    }
    let group = spellings.get(name)
    if (group === undefined) {
      group = findGroup(subscriptionId, name)
      spellings.set(ownCopy(name), group)
    }
    return group
  }
  function findGroup(subscriptionId: string, name: string): ResourceGroupItem {
    const key = `${subscriptionId}/${name.toLowerCase()}`
    let group = groups.get(key)
    if (!group) {
      group = {
        subscriptionId,
        name: ownCopy(name),
        armId: `/subscriptions/${subscriptionId}/resourceGroups/${name}`,
        location: null,
        tags: {},
      }
      groups.set(key, group)
    }
    return group
  }

  /** Notes a currency where it is first seen; the error to report when it is not the first, else null. */
  function noteCurrency(currency: string, file: string, line: number): FocusIssue | null {
    if (currencies.has(currency)) return null
    const at: FocusIssue = { file, line, message: '' }
    const first = currencies.values().next().value
    currencies.set(currency, at)
    if (!first || options.checkCurrencies === false) return null
    const firstCurrency = currencies.keys().next().value
    return {
      ...at,
      message:
        `billing currency ${currency} differs from ${firstCurrency} (first seen in ${first.file} line ${first.line}); ` +
        'an import should hold one currency: costs are kept per currency and never added across them',
    }
  }

  function addRow(row: FocusRow, file: string, line: number) {
    const subscriptionId = row.subscriptionId
    let subscription = subscriptions.get(subscriptionId)
    if (!subscription) {
      subscription = {
        subscriptionId,
        displayName: row.subscriptionName ?? subscriptionId,
        state: UNKNOWN_SUBSCRIPTION_STATE,
        currency: row.currency,
      }
      subscriptions.set(subscriptionId, subscription)
    } else if (subscription.displayName === subscriptionId && row.subscriptionName) {
      subscription.displayName = row.subscriptionName
    }
    const mixed = noteCurrency(row.currency, file, line)
    if (mixed) error(mixed)

    const group = row.groupName ? groupOf(subscriptionId, row.groupName) : null
    const resource = row.resourceId === null ? null : resourceKeyOf(row.resourceId)
    const resourceKey = resource === null ? '' : resource.key
    addCost(row, subscriptionId, resource, resourceKey, group)
    if (row.resourceId && group && resource?.arm) addResource(row, row.resourceId, resourceKey, group)
  }

  function addCost(
    row: FocusRow,
    subscriptionId: string,
    resource: { id: string } | null,
    resourceKey: string,
    group: ResourceGroupItem | null,
  ) {
    let byMeter = costs.get(resourceKey)
    if (byMeter === undefined) {
      byMeter = new Map()
      costs.set(resourceKey, byMeter)
    }
    let meter = byMeter.get(row.meterId)
    if (meter === undefined) {
      meter = { keys: [], entries: [], owner }
      byMeter.set(ownCopy(row.meterId), meter)
    } else if (meter.owner !== owner) {
      meter.owner = owner
      meter.entries = []
    }
    const entries = meter.entries
    // Entries in day order, so a file read in day order finds a row's entry at the end: the day's entries are
    // compared, the earlier days never.
    let at = entries.length
    while (at > 0 && entries[at - 1]!.date > row.day) at--
    for (let i = at - 1; i >= 0 && entries[i]!.date === row.day; i--) {
      const { key } = entries[i]!
      if (
        key.chargeCategory === row.chargeCategory &&
        key.chargeClass === row.chargeClass &&
        key.currency === row.currency &&
        key.subscriptionId === subscriptionId
      ) {
        entries[i]!.units += row.units
        return
      }
    }
    if (entries.length === 0) pending.push(meter)
    entries.splice(at, 0, { key: keyOf(meter, row, subscriptionId, resource, group), date: row.day, units: row.units })
    pendingCosts++
  }

  /** The key of a row's new entry, one of its meter's (texts the row's own copies: a view of the file's chunk would keep it alive). */
  function keyOf(
    meter: MeterCosts,
    row: FocusRow,
    subscriptionId: string,
    resource: { id: string } | null,
    group: ResourceGroupItem | null,
  ): CostRowKey {
    const resourceGroupName = group?.name ?? null
    // The row's texts compared as they are (a few characters each); only a new key looks them up (textOf).
    for (const key of meter.keys) {
      if (
        key.chargeCategory === row.chargeCategory &&
        key.chargeClass === row.chargeClass &&
        key.currency === row.currency &&
        key.subscriptionId === subscriptionId &&
        key.resourceGroupName === resourceGroupName &&
        key.meterName === row.meterName &&
        key.serviceName === row.serviceName
      )
        return key
    }
    const meterName = row.meterName && textOf(row.meterName)
    const serviceName = textOf(row.serviceName)
    // Own copies of every text: a key is kept for the whole import, and a view of the file's chunk (a cell's
    // text) would keep the chunk alive with it.
    const key: CostRowKey = {
      subscriptionId: ownCopy(subscriptionId),
      resourceArmId: resource === null ? null : resource.id,
      resourceGroupName,
      meterId: meter.keys[0]?.meterId ?? ownCopy(row.meterId),
      meterName,
      chargeCategory: ownCopy(row.chargeCategory) as ChargeCategory,
      chargeClass: row.chargeClass === null ? null : (ownCopy(row.chargeClass) as ChargeClass),
      serviceName,
      currency: ownCopy(row.currency),
    }
    meter.keys.push(key)
    return key
  }

  function addResource(row: FocusRow, armId: string, key: string, group: ResourceGroupItem) {
    mergeResource(key, group, armId, row.resourceName, row.resourceType ?? '', row.location, row.tags ?? {}, row.ms)
  }

  /**
   * A resource as a row (or a file read on its own) describes it, merged into what is known of it. Positional,
   * since it runs for every row: an object per call would be garbage per row.
   */
  function mergeResource(
    key: string,
    group: ResourceGroupItem,
    armId: string,
    name: string | null,
    resourceType: string,
    location: string | null,
    tags: Tags,
    tagsAt: number,
  ) {
    const known = resources.get(key)
    if (!known) {
      resources.set(ownCopy(key), {
        armId: ownCopy(armId),
        name: ownCopy(name ?? lastSegmentOf(armId)),
        resourceType: ownCopy(resourceType),
        location: location && ownCopy(location),
        subscriptionId: group.subscriptionId,
        resourceGroupName: group.name,
        tags,
        sku: null,
        state: null,
        properties: {},
        tagsAt,
      })
      return
    }
    // Tags change over a month; the latest charge period's row has the current ones (ties: the later row).
    if (tagsAt >= known.tagsAt) {
      // The same tags as before (the usual case) keep the object already held: replacing it on every row made
      // each row's tags live long enough to reach V8's old space, and memory grew between full collections.
      if (!sameTags(known.tags, tags)) known.tags = tags
      known.tagsAt = tagsAt
    }
    if (known.location === null && location) known.location = ownCopy(location)
    if (!known.resourceType && resourceType) known.resourceType = ownCopy(resourceType)
  }

  async function addFile(input: FocusInput, fileName?: string): Promise<void> {
    const file = fileName ?? (typeof input === 'string' ? input : 'input')
    let source: Readable
    try {
      source = await openDecoded(input)
    } catch (err) {
      error({ file, line: 0, message: `cannot read the file: ${messageOf(err)}` })
      return
    }
    let columns: ColumnIndex | null = null
    let stopped = false
    let fallbacks = 0

    function onRecord(record: string[], line: number) {
      if (columns === null) {
        const header = readHeader(record)
        if ('missing' in header)
          stop({ file, line, message: `not a FOCUS cost export: missing columns ${header.missing.join(', ')}` })
        else {
          columns = header
          reader.keepOnly(COLUMNS.map((c) => header[c]))
        }
        return
      }
      rowsRead++
      if (record.length !== columns.width) {
        rowsRejected++
        error({ file, line, message: `expected ${columns.width} fields as in the header, found ${record.length}` })
        return
      }
      const read = readRow(record, columns, memo)
      if ('problems' in read) {
        rowsRejected++
        error({ file, line, message: read.problems.join('; ') })
        return
      }
      if (read.row.tags === null)
        warn({ file, line, message: 'Tags is not a JSON object; the row is kept without tags' })
      if (read.row.usedBilledCost) fallbacks++
      addRow(read.row, file, line)
    }

    function onSkip(reason: string, line: number) {
      const message = `not valid CSV: ${reason}`
      if (columns === null) return stop({ file, line, message: `the header is ${message}` })
      rowsRead++
      rowsRejected++
      error({ file, line, message })
    }

    /** A file-level error: nothing more is read from this file. */
    function stop(issue: FocusIssue) {
      error(issue)
      stopped = true
    }

    // Records and CSV errors arrive in file order, each with the physical line it starts on.
    const reader = createCsvReader({
      onRecord: (fields, line) => {
        if (!stopped) onRecord(fields, line)
      },
      onError: (message, line) => {
        if (!stopped) onSkip(message, line)
      },
    })
    const decodeChunk = createDecoder()
    let failure: unknown = null
    // What the caller's hook throws (a database error) is the caller's, not a problem of the file.
    let hookFailure: { error: unknown } | null = null
    try {
      for await (const chunk of source) {
        reader.push(decodeChunk(chunk as Uint8Array))
        if (stopped) break
        try {
          await options.afterChunk?.({ file, rowsRead, pendingCosts })
        } catch (err) {
          hookFailure = { error: err }
          break
        }
      }
      if (!stopped && !hookFailure) {
        reader.push(decodeChunk(null))
        reader.end()
      }
    } catch (err) {
      failure = err
    } finally {
      source.destroy()
    }
    if (hookFailure) throw hookFailure.error
    if (failure && !stopped) {
      error({ file, line: reader.lastLine() + 1, message: `the file ends early or is corrupt: ${messageOf(failure)}` })
    }
    if (columns === null && !stopped && !failure) error({ file, line: 1, message: 'the file is empty' })
    if (fallbacks > 0) {
      const rows = fallbacks === 1 ? '1 row has' : `${fallbacks} rows have`
      warn({ file, line: 0, message: `${rows} no EffectiveCost; BilledCost was used instead` })
    }
  }

  /**
   * The cost rows summed so far, which are then forgotten: a caller that streams a large import writes them
   * away batch by batch, so memory does not grow with the file. Rows of the same key read later come in a later
   * batch; whoever stores the batches sums them (as the costs store's merge of staged rows does).
   */
  function takeCosts(): KeyedCostRows {
    const taken: KeyedCostRows = {
      keys: new Array(pendingCosts),
      dates: new Array(pendingCosts),
      costs: new Float64Array(pendingCosts),
    }
    let i = 0
    for (const meter of pending) {
      for (const e of meter.entries) {
        taken.keys[i] = e.key
        taken.dates[i] = e.date
        taken.costs[i++] = moneyToNumber(e.units)
      }
      meter.entries = []
    }
    pending = []
    pendingCosts = 0
    return taken
  }

  function result(): FocusParseResult {
    const kept = [...currencies.keys()]
    return {
      costs: toDailyCostRows(takeCosts()),
      subscriptions: [...subscriptions.values()],
      resourceGroups: [...groups.values()],
      resources: [...resources.values()].map(({ tagsAt: _, ...resource }) => resource),
      errors,
      errorCount,
      warnings,
      warningCount,
      rowsRead,
      rowsRejected,
      currency: kept.length === 1 ? kept[0]! : null,
      currencies: kept,
    }
  }

  /** What the files read so far contribute to a larger import, for its aggregator's `absorb`: take the costs first. */
  function part(): FocusFilePart {
    return {
      subscriptions: [...subscriptions.values()],
      resourceGroups: [...groups.values()],
      resources: [...resources.values()],
      currencies: [...currencies],
      errors,
      errorCount,
      warnings,
      warningCount,
      rowsRead,
      rowsRejected,
    }
  }

  /**
   * Adds what a file read on its own found (its `part`, made with checkCurrencies false), as though its rows had
   * been read here, after the files before it: absorb the parts in file order. Its costs are the caller's to
   * store, as every batch.
   */
  function absorb(file: FocusFilePart) {
    rowsRead += file.rowsRead
    rowsRejected += file.rowsRejected
    for (const s of file.subscriptions) {
      const known = subscriptions.get(s.subscriptionId)
      if (!known) subscriptions.set(s.subscriptionId, { ...s })
      else if (known.displayName === known.subscriptionId) known.displayName = s.displayName
    }
    for (const g of file.resourceGroups) findGroup(g.subscriptionId, g.name)
    for (const r of file.resources) {
      const group = findGroup(r.subscriptionId, r.resourceGroupName)
      const key = r.armId.toLowerCase()
      mergeResource(key, group, r.armId, r.name, r.resourceType, r.location, r.tags, r.tagsAt)
    }
    // A currency other than the first is reported where it was first seen, among the file's errors by line, as
    // reading the rows here would have.
    const mixed = file.currencies.flatMap(([currency, at]) => noteCurrency(currency, at.file, at.line) ?? [])
    let next = 0
    for (const issue of file.errors) {
      while (next < mixed.length && mixed[next]!.line < issue.line) error(mixed[next++]!)
      error(issue)
    }
    for (; next < mixed.length; next++) error(mixed[next]!)
    errorCount += file.errorCount - file.errors.length
    for (const issue of file.warnings) warn(issue)
    warningCount += file.warningCount - file.warnings.length
  }

  return {
    addFile,
    takeCosts,
    result,
    part,
    absorb,
    errorCount: () => errorCount,
    rowsRead: () => rowsRead,
  }
}
export type FocusAggregator = ReturnType<typeof createFocusAggregator>

/** One row's values after the cell rules; `tags` is null when the Tags text could not be read. */
interface FocusRow {
  ms: number
  day: string
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
  chargeCategory: ChargeCategory
  chargeClass: ChargeClass | null
  serviceName: string
  tags: Tags | null
}

type ColumnIndex = Record<Column, number> & { width: number }

/** Where each column is; names match exactly, else ignoring case and stray spaces or a second BOM. */
function readHeader(names: string[]): ColumnIndex | { missing: string[] } {
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
  const index = { width: names.length } as ColumnIndex
  for (const column of COLUMNS) index[column] = exact.get(column) ?? loose.get(column.toLowerCase()) ?? -1
  const missing = REQUIRED.filter((any) => any.every((c) => index[c] < 0)).map((any) => any.join(' or '))
  return missing.length > 0 ? { missing } : index
}

/**
 * The last or the known answers of the costly cell rules, per import. An export repeats the same few texts row
 * after row (a file is ordered by day, so ChargePeriodStart changes once per day; a subscription, currency and a
 * resource's tags change rarely): a string comparison or one map look-up replaces a regular expression, a Date
 * and JSON.parse. Only answers of valid cells are kept, so a bad cell is still reported on its own line.
 */
interface CellMemo {
  start: string
  ms: number
  day: string
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
const MEMO_RESOURCES_MAX = 100_000

/** Distinct meter and service names kept as one copy each at most (see textOf). */
const MEMO_TEXTS_MAX = 100_000

/** Distinct Tags texts remembered at most: an estate's resources with their tag sets, bounded whatever the size. */
const MEMO_TAGS_MAX = 20_000

function createCellMemo(): CellMemo {
  return {
    start: '',
    ms: 0,
    day: '',
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

function readRow(record: string[], at: ColumnIndex, memo: CellMemo): { row: FocusRow } | { problems: string[] } {
  // Azure writes nulls as empty fields, the FinOps Foundation sample as the bare word NULL.
  const cell = (column: Column): string | null => {
    const value = at[column] < 0 ? undefined : record[at[column]]?.trim()
    return value === undefined || value === '' || value === 'NULL' ? null : value
  }
  const problems: string[] = []

  const start = cell('ChargePeriodStart')
  const ms = start === null ? null : instantOf(start, memo)
  if (start === null) problems.push('ChargePeriodStart is missing')
  else if (ms === null) problems.push(`ChargePeriodStart ${JSON.stringify(start)} is not a date-time`)

  const currencyText = cell('BillingCurrency')
  const currency = currencyText === null ? null : currencyOf(currencyText, memo)
  if (currencyText === null) problems.push('BillingCurrency is missing')
  else if (currency === null) problems.push(`BillingCurrency ${JSON.stringify(currencyText)} is not an ISO 4217 code`)

  const effective = readMoney(cell('EffectiveCost'), 'EffectiveCost', problems)
  // BilledCost is only checked when EffectiveCost is there: a bad one is still a problem of the row.
  const billed = effective === undefined ? readMoney(cell('BilledCost'), 'BilledCost', problems) : undefined
  if (effective !== undefined) checkMoney(cell('BilledCost'), 'BilledCost', problems)
  // EffectiveCost is the figure (amortised); BilledCost stands in only when EffectiveCost is empty.
  const units = effective === undefined ? billed : effective
  if (effective === undefined && billed === undefined) problems.push('EffectiveCost and BilledCost are both missing')

  const resourceId = cell('ResourceId')
  const subAccount = cell('SubAccountId')
  // A row without SubAccountId can still be placed when its ResourceId is an ARM id.
  const subscriptionId = subAccount ? subscriptionIdOf(subAccount, memo) : resourceId && subscriptionOfArmId(resourceId)
  if (!subscriptionId) problems.push('SubAccountId is missing')

  const categoryText = cell('ChargeCategory')
  // x_SkuMeterId, when there, is the meter (meterIdOf's first rule): the other columns are then not read.
  const meterId =
    cell('x_SkuMeterId') ??
    meterIdOf({
      x_SkuMeterId: null,
      SkuPriceId: cell('SkuPriceId'),
      SkuId: cell('SkuId'),
      ChargeDescription: cell('ChargeDescription'),
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
  const chargeClass = chargeClassOf(cell('ChargeClass'))
  if (chargeClass === undefined) problems.push(`ChargeClass ${JSON.stringify(cell('ChargeClass'))} is not Correction`)

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
  const xType = cell('x_ResourceType')
  return {
    row: {
      ms,
      day: memo.day,
      subscriptionId,
      subscriptionName: cell('SubAccountName'),
      currency,
      units,
      usedBilledCost: effective === undefined,
      resourceId,
      resourceName: cell('ResourceName'),
      resourceType: xType?.toLowerCase() ?? (resourceId && armTypeOfArmId(resourceId)) ?? cell('ResourceType'),
      groupName: cell('x_ResourceGroupName') ?? (resourceId && resourceGroupOfArmId(resourceId)),
      location: cell('RegionId') ?? cell('RegionName'),
      meterId,
      meterName: cell('x_SkuMeterName') ?? cell('ChargeDescription'),
      chargeCategory,
      chargeClass,
      serviceName: cell('ServiceName') ?? cell('ServiceCategory') ?? 'Other',
      tags: tagsOf(cell('Tags'), memo),
    },
  }
}

/** Money units; undefined when the cell is empty, null (and a problem noted) when it holds something else. */
function readMoney(text: string | null, column: Column, problems: string[]): bigint | null | undefined {
  if (text === null) return undefined
  const units = parseMoney(text)
  if (units === null) problems.push(`${column} ${JSON.stringify(text)} is not a number`)
  return units
}

/** As readMoney without the units: notes a problem when the cell holds something other than a number. */
function checkMoney(text: string | null, column: Column, problems: string[]): void {
  if (text !== null && !isMoney(text)) problems.push(`${column} ${JSON.stringify(text)} is not a number`)
}

/**
 * Bytes per read and per gunzipped chunk: larger than gunzip's 16 KB (less work per row), but small enough that
 * a chunk's text is an ordinary young object that dies young: V8 puts strings over 128 KB in the large-object
 * space, which only a full collection frees, and memory grew by hundreds of MB between two of them.
 */
const READ_CHUNK_BYTES = 64 * 1024

/**
 * Decodes a file's UTF-8 chunk by chunk (null: the end). A chunk of ASCII alone (nearly every chunk of an export)
 * is read as Latin-1, a copy of its bytes, instead of through TextDecoder: on the FOCUS benchmark, decoding took
 * 0.55 s of each reader's 10, now 0.1 s. The first chunk, and any chunk after one that may end inside a
 * character, still goes through the decoder, which so sees the file's start (where it drops a byte order mark)
 * and every character whole.
 */
function createDecoder(): (chunk: Uint8Array | null) => string {
  const decoder = new TextDecoder('utf-8')
  let viaDecoder = true
  return (chunk) => {
    if (chunk === null) return decoder.decode()
    const ascii = isAscii(chunk)
    if (ascii && !viaDecoder) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1')
    const text = decoder.decode(chunk, { stream: true })
    viaDecoder = !ascii && chunk.length > 0 && chunk[chunk.length - 1]! >= 0x80
    return text
  }
}

function sameTags(a: Tags, b: Tags): boolean {
  if (a === b) return true // one object per Tags text (tagsOf)
  const keys = Object.keys(a)
  if (keys.length !== Object.keys(b).length) return false
  for (const key of keys) if (a[key] !== b[key]) return false
  return true
}

/**
 * The file's bytes, gunzipped when they start with the gzip magic number (whatever the file is called). Zip and
 * Parquet exports are refused by name rather than read as garbage.
 */
async function openDecoded(input: FocusInput): Promise<Readable> {
  const raw: AsyncIterable<Uint8Array> =
    typeof input === 'string' ? createReadStream(input, { highWaterMark: READ_CHUNK_BYTES }) : input
  const chunks = raw[Symbol.asyncIterator]()
  const head: Buffer[] = []
  let size = 0
  while (size < 4) {
    const next = await chunks.next()
    if (next.done) break
    const chunk = Buffer.from(next.value)
    head.push(chunk)
    size += chunk.length
  }
  const first = Buffer.concat(head)
  if (first.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1'))) throw new Error('a zip archive; unzip it first')
  if (first.subarray(0, 4).toString('latin1') === 'PAR1') throw new Error('a Parquet file; export FOCUS as CSV')
  async function* rest() {
    if (first.length > 0) yield first
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value
  }
  const bytes = Readable.from(rest(), { objectMode: false })
  const gzip = first[0] === 0x1f && first[1] === 0x8b
  return gzip ? pipeline(bytes, createGunzip({ chunkSize: READ_CHUNK_BYTES }), () => {}) : bytes
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}
