import { ownCopy } from '../../platform/text.js'
import {
  type ChargeCategory,
  type ChargeClass,
  type CostRowKey,
  type KeyedCostRows,
  type ResourceGroupItem,
  type SubscriptionItem,
  toDailyCostRows,
} from '../types.js'
import { addConformanceCounts, conformanceReport, createConformanceCounts } from './conformance.js'
import { createCsvReader } from './csv.js'
import { isArmId, lastSegmentOf, moneyToNumber, type Tags } from './fields.js'
import { createDecoder, type OpenedInput, openInput } from './input.js'
import { openParquetFile, type ParquetFile, parquetCellText } from './parquet.js'
import {
  COLUMNS,
  type ColumnIndex,
  createCellMemo,
  type FocusRow,
  MEMO_RESOURCES_MAX,
  MEMO_TEXTS_MAX,
  readHeader,
  readRow,
} from './row.js'
import type {
  CostKeys,
  FocusFilePart,
  FocusInput,
  FocusIssue,
  FocusParseOptions,
  FocusParseResult,
  MeterCosts,
  ResourceEntry,
} from './types.js'
import { type FocusVersion, focusVersionOf } from './versions.js'

/**
 * A ResourceId as read, its cost key (an ARM id lower-cased, another cloud's id as written) and inventory key, and
 * what a row of it goes on to: its meters' costs, the last meter one of its rows had and its inventory entry. Each
 * row finds them all through one look-up of its ResourceId: a look-up in a map of 16,000 resources costs a few
 * cache misses (a third of a microsecond to a microsecond), and a row made four of them.
 */
interface ResourceKeys {
  id: string
  key: string
  inventoryKey: string
  /** The resource's meters in the shared cost keys (`costs`), found at its first row. */
  meters: Map<string, MeterCosts>
  /** The meter of its last row: a resource's rows mostly repeat one meter. */
  lastMeter: MeterCosts | null
  /** Its entry in this aggregator's inventory, once a row has made or found it (addResource). */
  entry: ResourceEntry | undefined
}

/**
 * Reads FOCUS 1.0 to 1.2 cost exports (CSV, plain or gzip) as AWS, Azure, Google Cloud and the FinOps Foundation write
 * them, and sums them while streaming, a chunk at a time. Held alone, memory grows with the distinct (resource,
 * day, meter) keys; an import that writes the sums away as it goes (`afterChunk` and `takeCosts`) holds only a
 * batch and the inventory, whatever the size of the files. Bad rows become line-numbered issues and are left out
 * of the sums.
 */

/** Parquet rows between two calls of the afterChunk hook (a CSV chunk of 64 KB holds a few hundred). */
const PARQUET_CHUNK_ROWS = 4096

/** FOCUS says nothing of a subscription's state; the inventory keeps what ARM reports when it has it. */
export const UNKNOWN_SUBSCRIPTION_STATE = 'Unknown'

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
  // with entries, in the order they got their first. Every key has a billing period: rows of two billing periods
  // (a charge and its restatement in a later bill) stay two rows, so a period can be replaced on its own.
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
  const conformance = createConformanceCounts()
  const versions: (FocusVersion | null)[] = []
  const providers: string[] = []
  let lastProvider: string | null = null

  const memo = createCellMemo()

  function noteVersion(version: FocusVersion | null) {
    if (!versions.includes(version)) versions.push(version)
  }
  function noteProvider(name: string) {
    if (name === lastProvider) return
    lastProvider = name
    if (!providers.includes(name)) providers.push(ownCopy(name))
  }

  const error = (issue: FocusIssue) => {
    if (errorCount++ < maxIssues) errors.push(issue)
  }
  const warn = (issue: FocusIssue) => {
    if (warningCount++ < maxIssues) warnings.push(issue)
  }

  // ResourceIds seen, each with its key (lower-cased when an ARM id) and its inventory key (lower-cased, as the
  // inventory and the stored costs compare every id): one look-up per row instead of a regular expression and a
  // lower-cased copy. Keys are own copies, so nothing kept points into a chunk of the file.
  const resourceKeys = new Map<string, ResourceKeys>()
  function resourceKeyOf(resourceId: string): ResourceKeys {
    let known = resourceKeys.get(resourceId)
    if (known === undefined) {
      const arm = isArmId(resourceId)
      const id = ownCopy(resourceId)
      const lower = ownCopy(resourceId.toLowerCase())
      const key = arm ? lower : id
      known = { id, key, inventoryKey: lower, meters: metersOf(key), lastMeter: null, entry: undefined }
      if (resourceKeys.size >= MEMO_RESOURCES_MAX) resourceKeys.clear()
      resourceKeys.set(id, known)
    }
    return known
  }
  /** The meters of a resource key ('' for charges without a resource) in the shared cost keys. */
  function metersOf(resourceKey: string): Map<string, MeterCosts> {
    let meters = costs.get(resourceKey)
    if (meters === undefined) {
      meters = new Map()
      costs.set(resourceKey, meters)
    }
    return meters
  }
  /** The meters of charges without a resource, as a ResourceKeys holds a resource's. */
  let unplaced: Pick<ResourceKeys, 'meters' | 'lastMeter'> | null = null
  function unplacedMeters(): Pick<ResourceKeys, 'meters' | 'lastMeter'> {
    if (unplaced === null) unplaced = { meters: metersOf(''), lastMeter: null }
    return unplaced
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
    if (row.provider !== null) noteProvider(row.provider)

    const group = row.groupName ? groupOf(subscriptionId, row.groupName) : null
    const resource = row.resourceId === null ? null : resourceKeyOf(row.resourceId)
    addCost(row, subscriptionId, resource, group)
    // A resource of Azure has its group; another cloud's (an ARN, a Google resource name) has none, and its account
    // or project as its subscription.
    if (resource !== null) addResource(row, resource, subscriptionId, group)
  }

  function addCost(
    row: FocusRow,
    subscriptionId: string,
    resource: ResourceKeys | null,
    group: ResourceGroupItem | null,
  ) {
    const place = resource ?? unplacedMeters()
    let meter = place.lastMeter
    if (meter === null || meter.meterId !== row.meterId) {
      meter = place.meters.get(row.meterId) ?? null
      if (meter === null) {
        const meterId = ownCopy(row.meterId)
        meter = { meterId, keys: [], entries: [], owner }
        place.meters.set(meterId, meter)
      }
      place.lastMeter = meter
    }
    if (meter.owner !== owner) {
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
        key.subscriptionId === subscriptionId &&
        key.billingPeriod === row.billingPeriod
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
    // Newest first, billing period first: a meter has a key per billing period (14 in a 400-day export), and a
    // file in day order wants its newest; searched from the oldest, this loop took four times as long.
    const keys = meter.keys
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!
      if (
        key.billingPeriod === row.billingPeriod &&
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
      meterId: meter.meterId,
      meterName,
      chargeCategory: ownCopy(row.chargeCategory) as ChargeCategory,
      chargeClass: row.chargeClass === null ? null : (ownCopy(row.chargeClass) as ChargeClass),
      serviceName,
      currency: ownCopy(row.currency),
      billingPeriod: textOf(row.billingPeriod),
    }
    meter.keys.push(key)
    return key
  }

  function addResource(row: FocusRow, resource: ResourceKeys, subscriptionId: string, group: ResourceGroupItem | null) {
    resource.entry = mergeResource(
      resource.entry ?? resources.get(resource.inventoryKey),
      resource.inventoryKey,
      group?.subscriptionId ?? subscriptionId,
      group?.name ?? null,
      resource.id,
      row.resourceName,
      row.resourceType ?? '',
      row.location,
      row.tags ?? {},
      row.ms,
    )
  }

  /**
   * A resource as a row (or a file read on its own) describes it, merged into what is known of it (`known`, its
   * entry under `key`, an own copy); returns its entry. Positional, since it runs for every row: an object per call
   * would be garbage per row.
   */
  function mergeResource(
    known: ResourceEntry | undefined,
    key: string,
    subscriptionId: string,
    groupName: string | null,
    armId: string,
    name: string | null,
    resourceType: string,
    location: string | null,
    tags: Tags,
    tagsAt: number,
  ): ResourceEntry {
    if (!known) {
      const entry: ResourceEntry = {
        armId: ownCopy(armId),
        name: ownCopy(name ?? lastSegmentOf(armId)),
        resourceType: ownCopy(resourceType),
        location: location && ownCopy(location),
        subscriptionId,
        resourceGroupName: groupName,
        tags,
        sku: null,
        state: null,
        properties: {},
        tagsAt,
      }
      resources.set(key, entry)
      return entry
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
    return known
  }

  async function addFile(input: FocusInput, fileName?: string): Promise<void> {
    const file = fileName ?? (typeof input === 'string' ? input : 'input')
    let opened: OpenedInput
    try {
      opened = await openInput(input)
    } catch (err) {
      error({ file, line: 0, message: `cannot read the file: ${messageOf(err)}` })
      return
    }
    let columns: ColumnIndex | null = null
    let stopped = false
    let fallbacks = 0
    // The CSV reader's: only the columns read are sliced out of each record.
    let keepOnly: ((indexes: number[]) => void) | null = null

    function onRecord(record: string[], line: number) {
      if (columns === null) {
        const header = readHeader(record)
        if ('missing' in header)
          stop({ file, line, message: `not a FOCUS cost export: missing columns ${header.missing.join(', ')}` })
        else {
          columns = header
          noteVersion(focusVersionOf(record))
          keepOnly?.(COLUMNS.map((c) => header[c]))
        }
        return
      }
      rowsRead++
      if (record.length !== columns.width) {
        rowsRejected++
        error({ file, line, message: `expected ${columns.width} fields as in the header, found ${record.length}` })
        return
      }
      const read = readRow(record, columns, memo, conformance)
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

    function finish() {
      if (fallbacks > 0) {
        const rows = fallbacks === 1 ? '1 row has' : `${fallbacks} rows have`
        warn({ file, line: 0, message: `${rows} no EffectiveCost; BilledCost was used instead` })
      }
    }

    /**
     * A Parquet file through the same rules: its column names are the header, each row a record of texts as CSV
     * would hold them (`line`: the row's number counted as a CSV export's line, the header being line 1). One row
     * group's columns are in memory at a time; the hook runs every PARQUET_CHUNK_ROWS rows, as after a CSV chunk.
     */
    async function readParquet(path: string) {
      let parquet: ParquetFile
      try {
        parquet = await openParquetFile(path, options.onParquetSlice)
      } catch (err) {
        stop({ file, line: 0, message: `not a readable Parquet file: ${messageOf(err)}` })
        return
      }
      try {
        onRecord(parquet.names, 1)
        const header: ColumnIndex | null = columns
        if (stopped || header === null) return
        const wanted = [...new Set(COLUMNS.map((c) => header[c]).filter((i) => i >= 0))]
        const names = wanted.map((i) => parquet.names[i]!)
        const record = new Array<string>(parquet.names.length).fill('')
        let line = 1
        for (let g = 0; g < parquet.groups.length; g++) {
          let values: unknown[][]
          try {
            values = await parquet.readGroup(g, names)
          } catch (err) {
            stop({
              file,
              line: line + 1,
              message: `the file ends early or is corrupt: row group ${g + 1}: ${messageOf(err)}`,
            })
            return
          }
          const rows = parquet.groups[g]!
          for (let r = 0; r < rows; r++) {
            for (let k = 0; k < wanted.length; k++) record[wanted[k]!] = parquetCellText(values[k]![r])
            onRecord(record, ++line)
            if ((r + 1) % PARQUET_CHUNK_ROWS === 0 || r + 1 === rows)
              await options.afterChunk?.({ file, rowsRead, pendingCosts })
          }
        }
      } finally {
        await parquet.close()
      }
    }

    if (opened.kind === 'parquet') {
      try {
        await readParquet(opened.path)
      } finally {
        await opened.cleanup()
      }
      finish()
      return
    }
    const source = opened.source

    // Records and CSV errors arrive in file order, each with the physical line it starts on.
    const reader = createCsvReader({
      onRecord: (fields, line) => {
        if (!stopped) onRecord(fields, line)
      },
      onError: (message, line) => {
        if (!stopped) onSkip(message, line)
      },
    })
    keepOnly = reader.keepOnly
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
    finish()
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
      resources: [...resources.values()].map(({ tagsAt, ...resource }) => ({
        ...resource,
        tagsSeenAt: new Date(tagsAt).toISOString(),
      })),
      errors,
      errorCount,
      warnings,
      warningCount,
      rowsRead,
      rowsRejected,
      currency: kept.length === 1 ? kept[0]! : null,
      currencies: kept,
      focusVersion: versions.length === 1 ? versions[0]! : null,
      focusVersions: versions.filter((v) => v !== null),
      providers: [...providers],
      conformance: conformanceReport(conformance),
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
      focusVersions: [...versions],
      providers: [...providers],
      conformance: [...conformance],
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
    for (const version of file.focusVersions) noteVersion(version)
    for (const provider of file.providers) noteProvider(provider)
    addConformanceCounts(conformance, file.conformance)
    for (const s of file.subscriptions) {
      const known = subscriptions.get(s.subscriptionId)
      if (!known) subscriptions.set(s.subscriptionId, { ...s })
      else if (known.displayName === known.subscriptionId) known.displayName = s.displayName
    }
    for (const g of file.resourceGroups) findGroup(g.subscriptionId, g.name)
    for (const r of file.resources) {
      const group = r.resourceGroupName === null ? null : findGroup(r.subscriptionId, r.resourceGroupName)
      const subscriptionId = group?.subscriptionId ?? r.subscriptionId
      const key = ownCopy(r.armId.toLowerCase())
      mergeResource(
        resources.get(key),
        key,
        subscriptionId,
        group?.name ?? null,
        r.armId,
        r.name,
        r.resourceType,
        r.location,
        r.tags,
        r.tagsAt,
      )
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

function sameTags(a: Tags, b: Tags): boolean {
  if (a === b) return true // one object per Tags text (tagsOf)
  const keys = Object.keys(a)
  if (keys.length !== Object.keys(b).length) return false
  for (const key of keys) if (a[key] !== b[key]) return false
  return true
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}
