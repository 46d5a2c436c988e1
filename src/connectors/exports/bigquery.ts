import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import type { BigQuery } from '@google-cloud/bigquery'
import { type ExportFile, type ExportLocation, ExportLocationError, type ExportPeriod } from './types.js'

export interface BigQueryExportSettings {
  projectId: string
  dataset: string
  /** `gcp_billing_export_focus_<BILLING_ACCOUNT_ID>` as Google names it, or any table of the same columns. */
  table: string
  /** A service account key (the JSON file Google gives), with read access to the table and jobs in the project. */
  serviceAccountKey: { client_email: string; private_key: string; private_key_id?: string }
  /** BigQuery's REST address: Google's, or an emulator's (COSTWATCH_BIGQUERY_ENDPOINT). */
  apiEndpoint: string
}

/** What identifies a table's parts: letters, digits, `_` and `-` (checked when the tenant was created). */
const IDENTIFIER = /^[A-Za-z0-9_-]+$/

/**
 * Google Cloud's FOCUS export in BigQuery, read a billing period at a time. A period's "file" is the query of its
 * rows; its version is what the table holds of it (rows, billed and effective cost, summed by BigQuery), so a pull
 * re-reads a period only when Google has restated it. Rows are written as the CSV the FOCUS reader reads, with
 * BigQuery's types turned into FOCUS's text: timestamps in ISO 8601, numbers exact, tags as a JSON object.
 *
 * Signs in with a self-signed JWT of the service account (no token request): the key never leaves this process.
 */
export function bigQueryExportLocation(settings: BigQueryExportSettings): ExportLocation {
  for (const part of [settings.projectId, settings.dataset, settings.table])
    if (!IDENTIFIER.test(part)) throw new ExportLocationError('location_invalid', `${part} is not a table name.`)
  const table = `\`${settings.projectId}.${settings.dataset}.${settings.table}\``
  let ready: Promise<BigQuery> | null = null
  async function open(): Promise<BigQuery> {
    const [{ BigQuery }, { JWT }] = await Promise.all([import('@google-cloud/bigquery'), import('google-auth-library')])
    const authClient = new JWT({
      email: settings.serviceAccountKey.client_email,
      key: settings.serviceAccountKey.private_key,
      keyId: settings.serviceAccountKey.private_key_id,
      scopes: ['https://www.googleapis.com/auth/bigquery.readonly'],
    })
    authClient.useJWTAccessWithScope = true
    return new BigQuery({ projectId: settings.projectId, apiEndpoint: settings.apiEndpoint, authClient })
  }
  const client = () => {
    ready ??= open()
    return ready
  }

  return {
    async periods() {
      const bigquery = await client()
      const rows = await call(async () => {
        const [result] = await bigquery.query({
          query: `SELECT FORMAT_TIMESTAMP('%Y-%m', BillingPeriodStart) AS billingPeriod, COUNT(*) AS rowCount,
            CAST(SUM(BilledCost) AS STRING) AS billed, CAST(SUM(EffectiveCost) AS STRING) AS effective
            FROM ${table} GROUP BY billingPeriod ORDER BY billingPeriod`,
        })
        return result as { billingPeriod: string; rowCount: number; billed: string | null; effective: string | null }[]
      })
      return rows.map(
        (r): ExportPeriod => ({
          billingPeriod: r.billingPeriod,
          files: [
            {
              key: `${settings.projectId}.${settings.dataset}.${settings.table}/${r.billingPeriod}`,
              version: `rows=${r.rowCount};billed=${r.billed ?? 0};effective=${r.effective ?? 0}`,
              size: 0,
            },
          ],
        }),
      )
    },

    async download(file: ExportFile, path: string) {
      const bigquery = await client()
      const period = file.key.slice(file.key.lastIndexOf('/') + 1)
      const out = createWriteStream(path, { mode: 0o600 })
      let columns: string[] | null = null
      await call(async () => {
        const stream = bigquery.createQueryStream({
          query: `SELECT * FROM ${table} WHERE FORMAT_TIMESTAMP('%Y-%m', BillingPeriodStart) = @period`,
          params: { period },
        })
        for await (const row of stream as AsyncIterable<Record<string, unknown>>) {
          if (columns === null) {
            columns = Object.keys(row)
            out.write(`${columns.join(',')}\n`)
          }
          const line = `${columns.map((c) => csvField(textOf(row[c]))).join(',')}\n`
          if (!out.write(line)) await once(out, 'drain')
        }
      })
      out.end()
      await once(out, 'finish')
    },
  }
}

/** A BigQuery value as FOCUS text: timestamps and dates by their ISO text, numbers exact, tags as a JSON object. */
function textOf(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value)
  if (Array.isArray(value)) {
    // Google writes key-value labels as ARRAY<STRUCT<key, value>>: FOCUS's Tags are one JSON object.
    if (value.every((v) => v && typeof v === 'object' && 'key' in v))
      return JSON.stringify(Object.fromEntries(value.map((v: { key: string; value: unknown }) => [v.key, v.value])))
    return JSON.stringify(value)
  }
  const boxed = value as { value?: unknown; toFixed?: unknown }
  // BigQueryTimestamp, BigQueryDate: their `value` is the ISO text; Big (NUMERIC) prints exactly.
  if (typeof boxed.value === 'string') return boxed.value
  if (typeof boxed.toFixed === 'function') return String(value)
  return JSON.stringify(value)
}

function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** BigQuery's answers in words of the run's error: never the key. */
async function call<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send()
  } catch (err) {
    if (err instanceof ExportLocationError) throw err
    const e = err as { code?: number | string; message?: string; errors?: { reason?: string }[] }
    const reason = e.errors?.[0]?.reason
    if (e.code === 401 || e.code === 403)
      throw new ExportLocationError('location_denied', `BigQuery refused the service account (${reason ?? e.code}).`)
    if (e.code === 404 || e.code === 400)
      throw new ExportLocationError('location_invalid', `BigQuery could not read the table (${reason ?? e.code}).`)
    if (typeof e.code === 'number')
      throw new ExportLocationError('location_unreachable', `BigQuery answered ${e.code} (${reason ?? 'error'}).`)
    throw new ExportLocationError(
      'location_unreachable',
      `BigQuery could not be reached (${e.code ?? 'network error'}).`,
    )
  }
}
