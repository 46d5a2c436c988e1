/** One data file of an export's billing period, as the store names it now. */
export interface ExportFile {
  /** The object's key (path) in the store. */
  key: string
  /** What changes when the file does: the store's ETag. */
  version: string
  size: number
}

/** A billing period of an export: the files its newest manifest names. */
export interface ExportPeriod {
  /** `YYYY-MM` */
  billingPeriod: string
  files: ExportFile[]
}

/** Where FOCUS exports are pulled from (an S3 bucket's AWS Data Exports folder). */
export interface ExportLocation {
  /** Every billing period the export holds, oldest first, each with the files of its newest manifest. */
  periods(signal?: AbortSignal): Promise<ExportPeriod[]>
  /** Writes one file's bytes to `path`. */
  download(file: ExportFile, path: string, signal?: AbortSignal): Promise<void>
}

/** A location that cannot be read: its words are the run's error (never a secret, never a signed URL). */
export class ExportLocationError extends Error {
  constructor(
    readonly code: 'location_unreachable' | 'location_denied' | 'location_invalid',
    message: string,
  ) {
    super(message)
  }
}
