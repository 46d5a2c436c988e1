/**
 * Reading an Infracost JSON report (`infracost breakdown --format json` or `infracost diff --format json`, format
 * 0.2) into a marker's prediction: the report's `diffTotalMonthlyCost` (a decimal string), its currency, and the
 * commit and pull request of its metadata.
 */

export const INFRACOST_VERSIONS = ['0.2'] as const

export interface InfracostPrediction {
  monthlyDelta: number
  currency: string
  source: 'Infracost'
  commit: string | null
  pullRequestUrl: string | null
}

const asObject = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null)

/** The prediction a report gives, or the reasons it gives none (each a sentence naming the field). */
export function predictionFromInfracost(report: unknown): InfracostPrediction | { errors: string[] } {
  const root = asObject(report)
  if (!root) return { errors: ['the report is not a JSON object'] }
  const errors: string[] = []
  const version = root.version
  if (version === undefined) errors.push('the report has no "version" (expected "0.2": is it Infracost JSON output?)')
  else if (!INFRACOST_VERSIONS.includes(String(version) as '0.2'))
    errors.push(`"version" is ${JSON.stringify(version)}; this command reads Infracost JSON format 0.2`)
  const diff = root.diffTotalMonthlyCost
  // A decimal string in format 0.2; a number is taken too.
  const delta = typeof diff === 'string' && /^-?\d+(\.\d+)?$/.test(diff.trim()) ? Number(diff) : diff
  if (typeof delta !== 'number' || !Number.isFinite(delta))
    errors.push(
      diff === undefined || diff === null
        ? 'the report has no "diffTotalMonthlyCost"'
        : `"diffTotalMonthlyCost" must be a decimal number, e.g. "742.64" (got ${JSON.stringify(diff)})`,
    )
  const currency = root.currency
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency))
    errors.push(`"currency" must be an ISO 4217 code such as "USD" (got ${JSON.stringify(currency ?? null)})`)
  const metadata = asObject(root.metadata) ?? {}
  // Infracost names the commit vcsCommitSha; its documentation's example has it as `commit`.
  const commit = text(metadata.vcsCommitSha) ?? text(metadata.commit)
  const pullRequestUrl = text(metadata.vcsPullRequestUrl)
  if (pullRequestUrl !== null && !/^https?:\/\/[^/\s]/.test(pullRequestUrl))
    errors.push(`"metadata.vcsPullRequestUrl" must be an http(s) URL (got ${JSON.stringify(pullRequestUrl)})`)
  if (errors.length) return { errors }
  return {
    monthlyDelta: Math.round((delta as number) * 100) / 100,
    currency: currency as string,
    source: 'Infracost',
    commit,
    pullRequestUrl,
  }
}
