import { readFile } from 'node:fs/promises'
import { Command } from 'commander'
import { describe, expect, it } from 'vitest'
import {
  backoffMs,
  type CliIo,
  createMarker,
  type MarkerRequest,
  registerEventCommands,
  retryAfterMs,
} from '../../src/features/events/cli.js'

const event = {
  id: 'e1',
  tenantId: 't1',
  title: 'Deploy',
  category: 'Deployment',
  occurredAt: '2026-03-01T08:00:00.000Z',
}

type Answer = Response | Error

/** An io whose fetch plays the given answers in turn and records every request; sleeping only records. */
function fakeIo(answers: Answer[], env: Record<string, string> = {}) {
  const calls: { url: string; init: RequestInit }[] = []
  const sleeps: number[] = []
  const out: string[] = []
  const err: string[] = []
  const exits: number[] = []
  const io: CliIo = {
    env,
    fetch: async (url, init) => {
      calls.push({ url: String(url), init: init ?? {} })
      const answer = answers[calls.length - 1]
      if (!answer) throw new Error('no more answers')
      if (answer instanceof Error) throw answer
      return answer
    },
    sleep: async (ms) => {
      sleeps.push(ms)
    },
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    random: () => 0.5,
    now: () => new Date('2026-03-01T09:00:00.000Z'),
    newIdempotencyKey: () => `key-${calls.length}`,
    readFile: (path) => readFile(path, 'utf8'),
    exit: (code) => exits.push(code),
  }
  return { io, calls, sleeps, out, err, exits }
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })
const refused = () => Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } })

const request: MarkerRequest = {
  baseUrl: 'http://127.0.0.1:9',
  apiKey: 'cw_secret',
  tenantId: 't1',
  body: { title: 'Deploy', category: 'Deployment', occurredAt: '2026-03-01T08:00:00.000Z' },
  maxAttempts: 5,
}

describe('createMarker retries', () => {
  it('retries network errors, 429 and 5xx with one Idempotency-Key, honouring Retry-After', async () => {
    const f = fakeIo([
      refused(),
      json(429, { title: 'Too many requests.' }, { 'retry-after': '7' }),
      json(502, { title: 'Bad gateway' }),
      json(201, event),
    ])
    const outcome = await createMarker(request, f.io)
    expect(outcome).toEqual({ ok: true, event, attempts: 4 })
    expect(f.calls.map((c) => (c.init.headers as Record<string, string>)['idempotency-key'])).toEqual([
      'key-0',
      'key-0',
      'key-0',
      'key-0',
    ])
    expect(f.calls[0]!.url).toBe('http://127.0.0.1:9/api/public/v1/tenants/t1/events')
    expect((f.calls[0]!.init.headers as Record<string, string>)['x-api-key']).toBe('cw_secret')
    // Backoff after the network error (attempt 1), Retry-After after the 429, backoff again after the 502.
    expect(f.sleeps).toEqual([backoffMs(1, 0.5), 7000, backoffMs(3, 0.5)])
    expect(f.err.join('')).not.toContain('cw_secret')
  })

  it('retries a 409 that says the same key is still in flight', async () => {
    const f = fakeIo([
      json(409, { type: '/problems/idempotency-in-flight', title: 'In progress' }, { 'retry-after': '1' }),
      json(201, event),
    ])
    expect((await createMarker(request, f.io)).ok).toBe(true)
    expect(f.sleeps).toEqual([1000])
  })

  it('does not retry other 4xx answers, and passes on their field errors', async () => {
    for (const status of [400, 401, 403, 404, 409, 413, 422]) {
      const f = fakeIo([json(status, { title: 'Nope', detail: 'Because.', errors: { category: ['is bad'] } })])
      const outcome = await createMarker(request, f.io)
      expect(outcome).toEqual({
        ok: false,
        message: `${status} Nope Because.${status === 401 ? ' (check COSTWATCH_API_KEY)' : ''}`,
        fieldErrors: { category: ['is bad'] },
        attempts: 1,
      })
      expect(f.sleeps).toEqual([])
    }
  })

  it('gives up after maxAttempts', async () => {
    const f = fakeIo(Array.from({ length: 9 }, () => json(503, { title: 'Unavailable' })))
    const outcome = await createMarker(request, f.io)
    expect(outcome).toMatchObject({
      ok: false,
      attempts: 5,
      message: expect.stringContaining('gave up after 5 attempts'),
    })
    expect(f.calls).toHaveLength(5)
    expect(f.sleeps).toHaveLength(4)
  })

  it('a lost response (the connection cut while reading the 201) is retried', async () => {
    const cut = new Response(
      new ReadableStream({
        start(controller) {
          controller.error(new TypeError('terminated'))
        },
      }),
      { status: 201 },
    )
    const f = fakeIo([cut, json(201, event)])
    expect(await createMarker(request, f.io)).toMatchObject({ ok: true, attempts: 2 })
  })
})

describe('backoff and Retry-After', () => {
  it('grows exponentially with jitter, capped', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, 0))).toEqual([250, 500, 1000, 2000, 4000, 4000])
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, 0.999999))).toEqual([500, 1000, 2000, 4000, 8000, 8000])
  })
  it('reads seconds and HTTP dates', () => {
    const now = new Date('2026-03-01T09:00:00.000Z')
    expect(retryAfterMs('3', now)).toBe(3000)
    expect(retryAfterMs('Sun, 01 Mar 2026 09:00:05 GMT', now)).toBe(5000)
    expect(retryAfterMs('Sun, 01 Mar 2026 08:00:00 GMT', now)).toBe(0)
    expect(retryAfterMs(null, now)).toBeNull()
    expect(retryAfterMs('soon', now)).toBeNull()
  })
})

describe('the command', () => {
  const run = async (argv: string[], f: ReturnType<typeof fakeIo>) => {
    const program = new Command('costwatch').exitOverride()
    registerEventCommands(program, f.io)
    await program.parseAsync(['events', 'create', ...argv], { from: 'user' })
  }
  const env = { COSTWATCH_URL: 'https://cw.example.com/', COSTWATCH_API_KEY: 'cw_secret' }

  it('sends the flags as the body, occurredAt defaulting to now', async () => {
    const f = fakeIo([json(201, event)], env)
    await run(['--tenant', 't1', '--title', 'Deploy', '--category', 'Deployment', '--tag', 'env=prod'], f)
    expect(f.exits).toEqual([0])
    expect(f.calls[0]!.url).toBe('https://cw.example.com/api/public/v1/tenants/t1/events')
    expect(JSON.parse(String(f.calls[0]!.init.body))).toEqual({
      occurredAt: '2026-03-01T09:00:00.000Z',
      title: 'Deploy',
      category: 'Deployment',
      tagKey: 'env',
      tagValue: 'prod',
    })
  })

  it('--best-effort exits 0 on any failure, and says why on stderr', async () => {
    const f = fakeIo([json(400, { title: 'Invalid', errors: { category: ['must be one of: Deployment'] } })], env)
    await run(['--tenant', 't1', '--title', 'Deploy', '--category', 'X', '--best-effort', '--json'], f)
    expect(f.exits).toEqual([0])
    expect(f.out).toEqual([])
    expect(f.err.join('')).toContain('category: must be one of: Deployment')
    const g = fakeIo([json(400, { title: 'Invalid' })], env)
    await run(['--tenant', 't1', '--title', 'Deploy', '--category', 'X'], g)
    expect(g.exits).toEqual([1])
  })
})
