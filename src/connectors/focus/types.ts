import type { Readable } from 'node:stream'
import type { CostRowKey, DailyCostRow, ResourceGroupItem, ResourceItem, SubscriptionItem } from '../types.js'
import type { ConformanceResult } from './conformance.js'
import type { FocusVersion } from './versions.js'

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
  /** Told the size of each read of a Parquet file (tests: no read spans more than a row group). */
  onParquetSlice?: (bytes: number) => void
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
  /** The FOCUS version of the files when they all have the same one (versions.ts); null when not, or unknown. */
  focusVersion: FocusVersion | null
  /** The versions of the files, in order of first appearance (files of no known version left out). */
  focusVersions: FocusVersion[]
  /** ServiceProviderName (else ProviderName) values of the rows read, in order of first appearance. */
  providers: string[]
  /**
   * Every requirement checked (conformance.ts), with the rows of every file that fail it; rows that are not CSV
   * records of the header's width are not checked.
   */
  conformance: ConformanceResult[]
}

/**
 * What one file read on its own contributes to an import besides its costs (see `part` and `absorb`): a reader
 * thread sends it once the file is read and its costs taken. Its resources keep when their tags were seen, and its
 * currencies where each was first seen, in order of first appearance.
 */
export interface FocusFilePart
  extends Omit<
    FocusParseResult,
    'costs' | 'resources' | 'currency' | 'currencies' | 'focusVersion' | 'focusVersions' | 'conformance'
  > {
  resources: ResourceEntry[]
  currencies: [string, FocusIssue][]
  /** The files' versions, null for a file of none known. */
  focusVersions: (FocusVersion | null)[]
  /** Failed rows by requirement, in the order of REQUIREMENTS. */
  conformance: number[]
}

/** A key's cost of one day so far. */
export interface CostEntry {
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
  /** The meter's id (an own copy). */
  meterId: string
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
