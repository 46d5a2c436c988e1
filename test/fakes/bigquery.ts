/**
 * A local fake of the BigQuery REST calls the Google Cloud export reader makes (jobs.query and getQueryResults,
 * paged), over a FOCUS export table held in memory. It checks what the real service would: the bearer token is a
 * JWT signed (RS256) by the service account's key, with the BigQuery scope. It understands the reader's two
 * queries (the billing periods' summary, and one period's rows) and answers in BigQuery's wire format: each row
 * `{f: [{v}]}` with every value as text, TIMESTAMPs as microseconds (`formatOptions.useInt64Timestamp`).
 */
import { createPublicKey, createVerify, randomUUID } from 'node:crypto'
import http from 'node:http'

export interface FakeTable {
  /** `project.dataset.table` */
  name: string
  columns: readonly string[]
  rows: Record<string, string | null>[]
}

type FieldType = 'TIMESTAMP' | 'NUMERIC' | 'JSON' | 'STRING' | 'INTEGER'
const typeOf = (column: string): FieldType =>
  /Period(Start|End)$/.test(column)
    ? 'TIMESTAMP'
    : /(Cost|Quantity|UnitPrice)$/.test(column)
      ? 'NUMERIC'
      : column === 'Tags'
        ? 'JSON'
        : 'STRING'
const wire = (type: FieldType, value: string | null) =>
  value === null || value === '' ? null : type === 'TIMESTAMP' ? String(Date.parse(value) * 1000) : value
const monthOf = (value: string | null) => new Date(Date.parse(value ?? '')).toISOString().slice(0, 7)
const sum = (rows: Record<string, string | null>[], column: string) =>
  rows.reduce((total, row) => total + Number(row[column] ?? 0), 0)

export async function startFakeBigQuery(options: {
  tables: FakeTable[]
  /** The service account allowed, by its e-mail and public key (PEM). */
  account: { clientEmail: string; publicKey: string }
  pageSize?: number
}) {
  const pageSize = options.pageSize ?? 500
  const pending = new Map<string, { fields: { name: string; type: FieldType }[]; rows: unknown[] }>()
  const requests: string[] = []

  const authorised = (header: string | undefined): boolean => {
    const token = /^Bearer (.+)$/.exec(header ?? '')?.[1]
    if (!token) return false
    const [head, body, signature] = token.split('.')
    if (!head || !body || !signature) return false
    const verify = createVerify('RSA-SHA256').update(`${head}.${body}`)
    if (!verify.verify(createPublicKey(options.account.publicKey), Buffer.from(signature, 'base64url'))) return false
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>
    return (
      claims.iss === options.account.clientEmail &&
      String(claims.scope ?? claims.aud ?? '').includes('bigquery') &&
      Number(claims.exp) * 1000 > Date.now()
    )
  }

  const page = (jobId: string, projectId: string, token: number) => {
    const job = pending.get(jobId)!
    const rows = job.rows.slice(token, token + pageSize)
    const next = token + pageSize < job.rows.length ? String(token + pageSize) : undefined
    return {
      kind: 'bigquery#queryResponse',
      jobComplete: true,
      jobReference: { projectId, jobId, location: 'US' },
      schema: { fields: job.fields.map((f) => ({ name: f.name, type: f.type, mode: 'NULLABLE' })) },
      rows,
      totalRows: String(job.rows.length),
      ...(next ? { pageToken: next } : {}),
    }
  }

  const query = (projectId: string, request: Record<string, unknown>) => {
    const text = String(request.query ?? '')
    const name = /FROM `([^`]+)`/.exec(text)?.[1]
    const table = options.tables.find((t) => t.name === name)
    if (!table)
      return {
        status: 404,
        body: { error: { code: 404, message: `Not found: Table ${name}`, errors: [{ reason: 'notFound' }] } },
      }
    const jobId = randomUUID()
    if (/GROUP BY billingPeriod/.test(text)) {
      const periods = new Map<string, Record<string, string | null>[]>()
      for (const row of table.rows) {
        const period = monthOf(row.BillingPeriodStart ?? null)
        periods.set(period, [...(periods.get(period) ?? []), row])
      }
      const rows = [...periods.keys()].sort().map((period) => {
        const of = periods.get(period)!
        return {
          f: [
            { v: period },
            { v: String(of.length) },
            { v: String(sum(of, 'BilledCost')) },
            { v: String(sum(of, 'EffectiveCost')) },
          ],
        }
      })
      pending.set(jobId, {
        fields: [
          { name: 'billingPeriod', type: 'STRING' },
          { name: 'rowCount', type: 'INTEGER' },
          { name: 'billed', type: 'STRING' },
          { name: 'effective', type: 'STRING' },
        ],
        rows,
      })
    } else {
      const parameters = (request.queryParameters ?? []) as { name: string; parameterValue: { value: string } }[]
      const period = parameters.find((p) => p.name === 'period')?.parameterValue.value
      if (!period)
        return {
          status: 400,
          body: {
            error: { code: 400, message: 'Query parameter period missing', errors: [{ reason: 'invalidQuery' }] },
          },
        }
      const fields = table.columns.map((name) => ({ name, type: typeOf(name) }))
      const rows = table.rows
        .filter((row) => monthOf(row.BillingPeriodStart ?? null) === period)
        .map((row) => ({ f: fields.map((f) => ({ v: wire(f.type, row[f.name] ?? null) })) }))
      pending.set(jobId, { fields, rows })
    }
    return { status: 200, body: page(jobId, projectId, 0) }
  }

  const server = http.createServer((req, res) => {
    let raw = ''
    req.on('data', (chunk) => (raw += chunk))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake')
      requests.push(`${req.method} ${url.pathname}`)
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' })
        res.end(JSON.stringify(body))
      }
      if (!authorised(req.headers.authorization))
        return send(401, {
          error: {
            code: 401,
            message: 'Request had invalid authentication credentials.',
            errors: [{ reason: 'authError' }],
          },
        })
      const run = /^\/bigquery\/v2\/projects\/([^/]+)\/queries$/.exec(url.pathname)
      if (req.method === 'POST' && run) {
        const answer = query(run[1]!, JSON.parse(raw || '{}'))
        return send(answer.status, answer.body)
      }
      const results = /^\/bigquery\/v2\/projects\/([^/]+)\/queries\/([^/]+)$/.exec(url.pathname)
      if (req.method === 'GET' && results && pending.has(results[2]!))
        return send(200, page(results[2]!, results[1]!, Number(url.searchParams.get('pageToken') ?? 0)))
      return send(404, {
        error: { code: 404, message: `No route ${req.method} ${url.pathname}`, errors: [{ reason: 'notFound' }] },
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
