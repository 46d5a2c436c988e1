import { createHash, randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import type { Command } from 'commander'
import { predictionFromInfracost } from './infracost.js'
import type { EventRecord } from './schemas.js'

/**
 * `costwatch events create`: a deploy marker from a CI/CD pipeline, over the public API. It talks HTTP only
 * (COSTWATCH_URL, COSTWATCH_API_KEY), retries what may succeed later, and sends one Idempotency-Key for all
 * its attempts, so a retry after a lost response never makes a second marker.
 */

export interface CliIo {
  env: Record<string, string | undefined>
  fetch: typeof fetch
  sleep(ms: number): Promise<void>
  stdout(text: string): void
  stderr(text: string): void
  /** In [0, 1): spreads retries of many pipelines apart. */
  random(): number
  now(): Date
  newIdempotencyKey(): string
  readFile(path: string): Promise<string>
  exit(code: number): void
}

export const processIo: CliIo = {
  env: process.env,
  fetch: (...args) => fetch(...args),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  random: Math.random,
  now: () => new Date(),
  newIdempotencyKey: () => `costwatch-cli-${randomUUID()}`,
  readFile: (path) => readFile(path, 'utf8'),
  exit: (code) => {
    process.exitCode = code // not process.exit(): stdout is flushed first when it is a pipe
  },
}

export const DEFAULT_MAX_ATTEMPTS = 5
const BASE_DELAY_MS = 500
const MAX_DELAY_MS = 8_000
const MAX_RETRY_AFTER_MS = 60_000
const ATTEMPT_TIMEOUT_MS = 30_000

export interface MarkerRequest {
  baseUrl: string
  apiKey: string
  tenantId: string
  body: Record<string, unknown>
  maxAttempts: number
  /** The Idempotency-Key of every attempt; a fresh random one when absent. */
  idempotencyKey?: string
}

export type MarkerOutcome =
  | { ok: true; event: EventRecord; attempts: number }
  | { ok: true; event: null; attempts: number; alreadyCreated: true }
  | { ok: false; message: string; fieldErrors: Record<string, string[]>; attempts: number }

interface Problem {
  type?: string
  title?: string
  detail?: string
  errors?: Record<string, string[]>
}

/** Seconds or an HTTP date, as Retry-After may carry either; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: Date): number | null {
  if (!header) return null
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000
  const at = Date.parse(header)
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime())
}

/** Exponential backoff with jitter: about 0.5 s, 1 s, 2 s, 4 s, 8 s; half fixed, half random. */
export function backoffMs(attempt: number, random: number): number {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (attempt - 1))
  return Math.round(ceiling / 2 + (random * ceiling) / 2)
}

/** The base URL without credentials, for messages. */
function shown(url: string): string {
  try {
    const u = new URL(url)
    return `${u.origin}${u.pathname}`
  } catch {
    return '(invalid URL)'
  }
}

async function readProblem(res: Response): Promise<Problem> {
  try {
    const body: unknown = await res.json()
    return body && typeof body === 'object' ? (body as Problem) : {}
  } catch {
    return {}
  }
}

function describeNetworkError(err: unknown): string {
  if (err instanceof Error) {
    if (err.name === 'TimeoutError') return `no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s`
    const cause = (err as { cause?: { code?: string; message?: string } }).cause
    return cause?.code ?? cause?.message ?? err.message
  }
  return String(err)
}

/**
 * Posts the marker, retrying network errors, timeouts, 429 and 5xx (and a 409 saying the same key is still in
 * flight) up to `maxAttempts` times; any other answer is final. Every attempt carries the same Idempotency-Key.
 */
export async function createMarker(req: MarkerRequest, io: CliIo): Promise<MarkerOutcome> {
  const url = `${req.baseUrl}/api/public/v1/tenants/${encodeURIComponent(req.tenantId)}/events`
  const idempotencyKey = req.idempotencyKey ?? io.newIdempotencyKey()
  let lastProblem = ''
  for (let attempt = 1; ; attempt++) {
    let waitMs: number | null = null
    try {
      const res = await io.fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'x-api-key': req.apiKey,
          'idempotency-key': idempotencyKey,
          'user-agent': 'costwatch-cli',
        },
        body: JSON.stringify(req.body),
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      })
      if (res.status === 201) return { ok: true, event: (await res.json()) as EventRecord, attempts: attempt }
      const problem = await readProblem(res)
      // A key of our own (one per commit) used with another body: this commit's marker exists already.
      if (req.idempotencyKey && res.status === 422 && problem.type === '/problems/idempotency-key-reused')
        return { ok: true, event: null, attempts: attempt, alreadyCreated: true }
      const what = `${res.status} ${problem.title ?? res.statusText}${problem.detail ? ` ${problem.detail}` : ''}`
      const inFlight = res.status === 409 && problem.type === '/problems/idempotency-in-flight'
      if (!(res.status === 429 || res.status >= 500 || inFlight)) {
        const hint = res.status === 401 ? ' (check COSTWATCH_API_KEY)' : ''
        return { ok: false, message: `${what}${hint}`, fieldErrors: problem.errors ?? {}, attempts: attempt }
      }
      lastProblem = what
      waitMs = retryAfterMs(res.headers.get('retry-after'), io.now())
    } catch (err) {
      lastProblem = `cannot reach ${shown(url)}: ${describeNetworkError(err)}`
    }
    if (attempt >= req.maxAttempts) {
      return {
        ok: false,
        message: `${lastProblem} (gave up after ${attempt} attempts)`,
        fieldErrors: {},
        attempts: attempt,
      }
    }
    const delay = Math.min(MAX_RETRY_AFTER_MS, waitMs ?? backoffMs(attempt, io.random()))
    io.stderr(
      `costwatch: ${lastProblem}; retrying in ${(delay / 1000).toFixed(1)} s (attempt ${attempt + 1} of ${req.maxAttempts})\n`,
    )
    await io.sleep(delay)
  }
}

interface CreateOptions {
  tenant?: string
  title?: string
  category?: string
  occurredAt?: string
  tag?: string
  description?: string
  bestEffort?: boolean
  json?: boolean
  maxAttempts: string
  infracost?: string
  commit?: string
}

/**
 * One Idempotency-Key per tenant, commit and title: a pipeline re-run for the same commit creates no second marker
 * (within the key's 24 hours), while two markers of one commit with different titles are both made.
 */
export function commitIdempotencyKey(tenantId: string, commit: string, title: string): string {
  const digest = createHash('sha256').update(`${tenantId}\n${commit}\n${title.trim()}`).digest('hex')
  return `costwatch-commit-${digest.slice(0, 40)}`
}

/** The prediction of an Infracost report file, or why there is none. */
export async function readInfracost(path: string, io: CliIo): Promise<Record<string, unknown> | { errors: string[] }> {
  let textOf: string
  try {
    textOf = await io.readFile(path)
  } catch (err) {
    const code = (err as { code?: string }).code
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (code ?? String(err))
    return { errors: [`--infracost: cannot read ${path}: ${why}`] }
  }
  let report: unknown
  try {
    report = JSON.parse(textOf)
  } catch {
    return { errors: [`--infracost: ${path} is not JSON (write it with: infracost breakdown --format json)`] }
  }
  const prediction = predictionFromInfracost(report)
  if ('errors' in prediction) return { errors: prediction.errors.map((e) => `--infracost: ${path}: ${e}`) }
  return { ...prediction }
}

/** The request a command line makes, or the reasons it cannot be made. */
export function markerRequestOf(opts: CreateOptions, io: CliIo): MarkerRequest | { usage: string[] } {
  const usage: string[] = []
  const baseUrl = (io.env.COSTWATCH_URL ?? '')
    .trim()
    .replace(/\/+$/, '')
    .replace(/\/api\/public\/v1$/, '')
  const apiKey = (io.env.COSTWATCH_API_KEY ?? '').trim()
  if (!baseUrl) usage.push('COSTWATCH_URL is not set (e.g. https://costwatch.example.com)')
  else if (!/^https?:\/\/[^/]/.test(baseUrl)) usage.push('COSTWATCH_URL must be an http:// or https:// URL')
  if (!apiKey) usage.push('COSTWATCH_API_KEY is not set')
  if (!opts.tenant) usage.push('--tenant is required')
  if (!opts.title) usage.push('--title is required')
  if (!opts.category) usage.push('--category is required')
  const maxAttempts = Number(opts.maxAttempts)
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > 10) {
    usage.push('--max-attempts must be a whole number from 1 to 10')
  }
  const body: Record<string, unknown> = {
    occurredAt: opts.occurredAt ?? io.now().toISOString(),
    title: opts.title ?? '',
    category: opts.category ?? '',
  }
  if (opts.description !== undefined) body.description = opts.description
  if (opts.tag !== undefined) {
    const eq = opts.tag.indexOf('=')
    if (eq < 1) usage.push('--tag takes KEY=VALUE, e.g. --tag service=checkout')
    else {
      body.tagKey = opts.tag.slice(0, eq)
      body.tagValue = opts.tag.slice(eq + 1)
    }
  }
  const commit = opts.commit?.trim()
  if (opts.commit !== undefined && !/^[\x21-\x7E]{1,200}$/.test(commit ?? ''))
    usage.push('--commit takes a commit SHA (visible characters, no spaces)')
  if (usage.length) return { usage }
  const request: MarkerRequest = { baseUrl, apiKey, tenantId: opts.tenant!, body, maxAttempts }
  if (commit) request.idempotencyKey = commitIdempotencyKey(opts.tenant!, commit, opts.title!)
  return request
}

async function runCreate(opts: CreateOptions, io: CliIo): Promise<number> {
  const bestEffort = !!opts.bestEffort
  const failed = (message: string, details: string[]) => {
    const lead = bestEffort ? 'warning: no event marker was created (--best-effort: exit 0)' : 'error'
    io.stderr(`${lead}: ${message}\n${details.map((d) => `  ${d}\n`).join('')}`)
    return bestEffort ? 0 : 1
  }
  const request = markerRequestOf(opts, io)
  if ('usage' in request) return failed('the command is incomplete', request.usage)
  if (opts.infracost !== undefined) {
    const prediction = await readInfracost(opts.infracost, io)
    if ('errors' in prediction) return failed('the Infracost report cannot be used', prediction.errors as string[])
    // The commit given on the command line wins over the report's.
    request.body.prediction = opts.commit ? { ...prediction, commit: opts.commit.trim() } : prediction
  }
  let outcome: MarkerOutcome
  try {
    outcome = await createMarker(request, io)
  } catch (err) {
    return failed(err instanceof Error ? err.message : String(err), [])
  }
  if (!outcome.ok) {
    const fields = Object.entries(outcome.fieldErrors).map(([field, messages]) => `${field}: ${messages.join('; ')}`)
    return failed(outcome.message, fields)
  }
  if (outcome.event === null) {
    io.stdout(
      opts.json
        ? `${JSON.stringify({ created: false, reason: 'already-exists', commit: opts.commit?.trim() })}\n`
        : `An event marker for commit ${opts.commit} already exists (same tenant and title); nothing created.\n`,
    )
    return 0
  }
  const e = outcome.event
  io.stdout(
    opts.json
      ? `${JSON.stringify(e, null, 2)}\n`
      : `Created event marker ${e.id} in tenant ${e.tenantId}: ${e.title} (${e.category}, ${e.occurredAt})\n`,
  )
  return 0
}

/** Adds `events create` to the command line. */
export function registerEventCommands(program: Command, io: CliIo = processIo): void {
  const events = program.command('events').description('Event markers (deployments, launches, incidents).')
  events
    .command('create')
    .description(
      'Create an event marker from a CI/CD pipeline. Reads COSTWATCH_URL and COSTWATCH_API_KEY; retries on ' +
        '429, 5xx and network errors with one Idempotency-Key, so a retry never makes a second marker.',
    )
    .option('--tenant <id>', 'tenant id (UUID)')
    .option('--title <title>', 'short title, e.g. "Deploy checkout 4.2"')
    .option('--category <category>', 'Deployment, Launch, Campaign, Configuration, Incident or Other')
    .option('--occurred-at <instant>', 'RFC 3339 instant (default: now)')
    .option('--tag <key=value>', 'show the marker only on charts of resources with this tag')
    .option('--description <text>', 'free text')
    .option(
      '--infracost <file>',
      'an Infracost JSON report (infracost breakdown|diff --format json): its diffTotalMonthlyCost becomes the ' +
        "marker's predicted monthly cost change",
    )
    .option(
      '--commit <sha>',
      'the commit the marker records: one marker per tenant, commit and title (a re-run within 24 hours creates none)',
    )
    .option('--best-effort', 'exit 0 whatever happens (the failure is printed to stderr)')
    .option('--max-attempts <n>', 'attempts before giving up, 1 to 10', String(DEFAULT_MAX_ATTEMPTS))
    .option('--json', 'print the created event as one JSON document')
    .action(async (opts: CreateOptions) => {
      io.exit(await runCreate(opts, io))
    })
}
