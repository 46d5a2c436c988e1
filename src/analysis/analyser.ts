/** What an analyser is given: the tenant, the UTC days whose costs changed, and the run's controls. */
export interface AnalysisContext {
  tenantId: string
  /** The first and last UTC day (YYYY-MM-DD) whose costs the snapshot or import wrote. */
  from: string
  to: string
  /** The run's clock reading when it started, for "now" decisions (snooze expiry, an expiry tag in the past). */
  now: Date
  /** Aborted when the run's lease is lost: stop, another worker has the run. */
  signal: AbortSignal
  /** What the analyser is doing now, shown in the run's progress. */
  progress(message: string): void
}

/**
 * One step of an analysis run (anomaly detection, insight rules). Each analyser writes its own results and must
 * be idempotent: a run interrupted half way is run again from the start, so writing the same findings twice must
 * leave one copy of each (upserts by a natural key), and a status a person set must survive a re-run.
 */
export interface Analyser {
  name: string
  analyse(ctx: AnalysisContext): Promise<void>
}
