import type { Schemas } from '../api'

type Removal = NonNullable<Schemas['Resource']['removal']>

/**
 * A removed resource in words: when its cost ended and how that is known. Its drop to zero is this information,
 * never an anomaly, so the chart's fall to nothing is explained where the resource is shown.
 */
export function removalText(removal: Removal): string {
  const why =
    removal.basis === 'NotInLatestCollection'
      ? 'the latest inventory collection no longer lists it'
      : 'the cost imports bill it no more'
  return `Removed: last cost on ${removal.lastCostDate} (${why}). Its drop to zero is not an anomaly.`
}
