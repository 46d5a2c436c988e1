import { once } from 'node:events'
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import type { TLSSocket } from 'node:tls'
import { afterEach, describe, expect, it } from 'vitest'
import {
  createOutboundClient,
  type OutboundClientOptions,
  OutboundFailedError,
  OutboundRefusedError,
} from '../../src/platform/outbound/index.js'
import { selfSignedCertificate } from '../fakes/azure/tls.js'

/** What no error may repeat: a Slack or Teams URL's path and query are its credential. */
const PATH = '/services/T0SECRETPATH/B0SECRETPATH'
const QUERY = '?sig=SECRETQUERY'

interface Receiver {
  port: number
  url: string
  requests: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string; servername?: string }>
  connections: number
  close(): Promise<void>
}

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

/** A local HTTP(S) receiver; `handle` answers each request once its body is read. */
async function receiver(
  handle: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_req, res) => res.end('ok'),
  options: { host?: string; port?: number; tls?: { key: string; cert: string } } = {},
): Promise<Receiver> {
  const host = options.host ?? '127.0.0.1'
  const requests: Receiver['requests'] = []
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => {
      body += chunk
    })
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
        servername: (req.socket as TLSSocket).servername || undefined,
      })
      handle(req, res)
    })
  }
  const server = options.tls ? https.createServer(options.tls, onRequest) : http.createServer(onRequest)
  const state = { connections: 0 }
  server.on(options.tls ? 'secureConnection' : 'connection', () => {
    state.connections++
  })
  server.listen(options.port ?? 0, host)
  await once(server, 'listening')
  const port = (server.address() as AddressInfo).port
  const close = async () => {
    server.closeAllConnections()
    await new Promise<void>((done) => server.close(() => done()))
  }
  closers.push(close)
  return {
    port,
    url: `${options.tls ? 'https' : 'http'}://${host}:${port}`,
    requests,
    get connections() {
      return state.connections
    },
    close,
  }
}

/** A resolver answering from a script: the n-th call gets answers[n] (the last one after that), and counts. */
function scriptedResolver(...answers: string[][]) {
  const calls: string[] = []
  const resolve = async (hostname: string) => {
    calls.push(hostname)
    return answers[Math.min(calls.length - 1, answers.length - 1)] as string[]
  }
  return { resolve, calls }
}

function client(options: Partial<OutboundClientOptions> = {}) {
  return createOutboundClient({ allow: [], ...options })
}

async function refusal(promise: Promise<unknown>): Promise<OutboundRefusedError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(OutboundRefusedError)
  const message = (err as Error).message
  expect(message).not.toMatch(/SECRET/)
  return err as OutboundRefusedError
}

async function failure(promise: Promise<unknown>): Promise<OutboundFailedError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(OutboundFailedError)
  expect((err as Error).message).not.toMatch(/SECRET/)
  return err as OutboundFailedError
}

/** Each address that is not public unicast, in a URL's host form, with the words its refusal must use. */
const REFUSED_LITERALS: Array<[host: string, words: RegExp]> = [
  ['127.0.0.1', /loopback/],
  ['127.8.9.10', /loopback/],
  ['2130706433', /127\.0\.0\.1(,| is) a loopback/], // 127.0.0.1 as a number
  ['0x7f.1', /127\.0\.0\.1(,| is) a loopback/],
  ['[::1]', /loopback/],
  ['10.1.2.3', /private/],
  ['172.16.5.4', /private/],
  ['192.168.1.1', /private/],
  ['169.254.169.254', /link-local/],
  ['[fe80::1]', /link-local/],
  ['100.64.0.1', /carrier-grade NAT/],
  ['100.127.255.254', /carrier-grade NAT/],
  ['0.0.0.0', /unspecified/],
  ['[::]', /unspecified/],
  ['255.255.255.255', /broadcast/],
  ['224.0.0.251', /multicast/],
  ['[ff02::1]', /multicast/],
  ['240.1.2.3', /reserved/],
  ['192.0.2.10', /reserved/],
  ['[2001:db8::1]', /reserved/],
  ['[fc00::1]', /unique-local/],
  ['[fd12:3456::1]', /unique-local/],
  ['[::ffff:127.0.0.1]', /IPv4-mapped/],
  ['[::ffff:169.254.169.254]', /IPv4-mapped/],
  ['[::ffff:8.8.8.8]', /IPv4-mapped/],
  ['[::127.0.0.1]', /IPv4-compatible/],
  ['[::a00:1]', /IPv4-compatible/],
  ['[::808:808]', /IPv4-compatible/],
  ['[64:ff9b::7f00:1]', /NAT64/],
  ['[64:ff9b::a9fe:a9fe]', /NAT64/],
  ['[2002:7f00:1::1]', /6to4/],
  ['[2001:0:4136:e378:8000:63bf:3fff:fdd2]', /Teredo/],
  ['[100::1]', /special-purpose/],
  ['[4000::1]', /not a global unicast IPv6/],
]

describe('the guarded outbound client', () => {
  describe('refuses every address that is not public unicast', () => {
    it.each(REFUSED_LITERALS)('a literal %s, by form and when sending, without reaching it', async (host, words) => {
      const loopback = await receiver()
      const url = `https://${host}:${loopback.port}${PATH}${QUERY}`
      const outbound = client()
      const byForm = outbound.refusalOf(url)
      expect(byForm).toMatch(words)
      expect(byForm).not.toMatch(/SECRET/)
      const err = await refusal(outbound.send({ method: 'POST', url, body: '{}' }))
      expect(err.message).toMatch(words)
      expect(err.code).toBe('outbound_refused')
      expect(loopback.connections).toBe(0)
    })

    it.each(REFUSED_LITERALS)('a name resolving to %s', async (host, words) => {
      const loopback = await receiver()
      const address = new URL(`https://${host}/`).hostname.replace(/^\[|\]$/g, '')
      const { resolve, calls } = scriptedResolver([address])
      const outbound = client({ resolve })
      const url = `https://hooks.example.test:${loopback.port}${PATH}${QUERY}`
      // A name cannot be judged by its form.
      expect(outbound.refusalOf(url)).toBeNull()
      const err = await refusal(outbound.send({ method: 'POST', url, body: '{}' }))
      expect(err.message).toMatch(words)
      expect(err.message).toContain('hooks.example.test resolves to')
      expect(calls).toEqual(['hooks.example.test'])
      expect(loopback.connections).toBe(0)
    })

    it('a name of which any one address is refused, even when the others are public', async () => {
      const loopback = await receiver()
      for (const answer of [
        ['93.184.215.14', '10.0.0.7'],
        ['10.0.0.7', '93.184.215.14'],
        ['2606:2800:21f:cb07:6820:80da:af6b:8b2c', '::ffff:10.0.0.7'],
      ]) {
        const err = await refusal(
          client({ resolve: async () => answer }).send({
            method: 'GET',
            url: `https://hooks.example.test:${loopback.port}${PATH}`,
          }),
        )
        expect(err.message).toMatch(/10\.0\.0\.7/)
      }
      expect(loopback.connections).toBe(0)
    })

    it('passes public unicast addresses by form', () => {
      const outbound = client()
      for (const url of [
        'https://1.1.1.1/x',
        'https://93.184.215.14:8443/x',
        'https://[2606:4700:4700::1111]/x',
        'https://hooks.slack.com/services/T/B/C',
      ])
        expect(outbound.refusalOf(url)).toBeNull()
    })
  })

  describe('refuses URLs by their form', () => {
    it.each([
      ['https://user:SECRETPASS@hooks.example.com/x', /user name or password/],
      ['https://:SECRETPASS@hooks.example.com/x', /user name or password/],
      ['ftp://hooks.example.com/SECRET', /scheme ftp is not allowed/],
      ['file:///etc/SECRET', /scheme file is not allowed/],
      ['javascript:alert(1)//SECRET', /scheme javascript is not allowed/],
      ['not a url SECRET', /not a valid absolute URL/],
      ['/relative/SECRET', /not a valid absolute URL/],
      ['http://hooks.example.com/SECRET', /Only https URLs are allowed/],
    ])('%s', async (url, words) => {
      const { resolve, calls } = scriptedResolver(['93.184.215.14'])
      const outbound = client({ resolve })
      const byForm = outbound.refusalOf(url)
      expect(byForm).toMatch(words)
      expect(byForm).not.toMatch(/SECRET/)
      const err = await refusal(outbound.send({ method: 'POST', url, body: '{}' }))
      expect(err.message).toMatch(words)
      expect(calls).toEqual([])
    })
  })

  describe('http', () => {
    it('is refused to an address outside the allow-list, public or not', async () => {
      const local = await receiver()
      const outbound = client({ allow: ['127.0.0.1/32'], resolve: async () => ['93.184.215.14'] })
      // By form a name over http may pass when the allow-list is not empty: its addresses are checked when sending.
      expect(outbound.refusalOf(`http://hooks.example.test${PATH}`)).toBeNull()
      const byName = await refusal(outbound.send({ method: 'GET', url: `http://hooks.example.test${PATH}${QUERY}` }))
      expect(byName.message).toMatch(/http is allowed only to the networks of COSTWATCH_OUTBOUND_ALLOW/)
      expect(byName.message).toContain('93.184.215.14')
      const literal = `http://127.0.0.2:${local.port}${PATH}`
      expect(outbound.refusalOf(literal)).toMatch(/127\.0\.0\.2 is a loopback/)
      await refusal(outbound.send({ method: 'GET', url: literal }))
      expect(outbound.refusalOf(`http://93.184.215.14${PATH}`)).toMatch(/http is allowed only/)
      expect(local.connections).toBe(0)
    })

    it('is refused when one of a name’s addresses is outside the allow-list', async () => {
      const local = await receiver()
      const outbound = client({ allow: ['127.0.0.1/32'], resolve: async () => ['127.0.0.1', '93.184.215.14'] })
      await refusal(outbound.send({ method: 'GET', url: `http://hooks.example.test:${local.port}${PATH}` }))
      expect(local.connections).toBe(0)
    })

    it('reaches a receiver within the allow-list, by address and by name, with the request as given', async () => {
      const local = await receiver((_req, res) => {
        res.setHeader('X-Answer', 'Yes')
        res.statusCode = 202
        res.end('accepted')
      })
      const outbound = client({ allow: ['127.0.0.1/32'], resolve: async () => ['127.0.0.1'] })
      expect(outbound.refusalOf(`${local.url}${PATH}`)).toBeNull()
      const response = await outbound.send({
        method: 'POST',
        url: `${local.url}${PATH}${QUERY}`,
        headers: { 'Content-Type': 'application/json', 'webhook-id': 'msg_1' },
        body: '{"type":"test","text":"é"}',
      })
      expect(response).toMatchObject({ status: 202, body: 'accepted', truncated: false })
      expect(response.headers['x-answer']).toBe('Yes')
      expect(response.latencyMs).toBeGreaterThanOrEqual(0)
      const byName = await outbound.send({ method: 'GET', url: `http://hooks.example.test:${local.port}/two` })
      expect(byName.status).toBe(202)
      expect(local.requests.map((r) => [r.method, r.url, r.body])).toEqual([
        ['POST', `${PATH}${QUERY}`, '{"type":"test","text":"é"}'],
        ['GET', '/two', ''],
      ])
      expect(local.requests[0]?.headers).toMatchObject({
        'content-type': 'application/json',
        'webhook-id': 'msg_1',
        'content-length': String(Buffer.byteLength('{"type":"test","text":"é"}')),
      })
      // The Host header names the host of the URL, not the address connected to.
      expect(local.requests[1]?.headers.host).toBe(`hooks.example.test:${local.port}`)
    })

    it('reaches an allowed private network only within its CIDR, and https to it as well', async () => {
      const outbound = client({ allow: ['10.20.0.0/16'] })
      expect(outbound.refusalOf('http://10.20.3.4/x')).toBeNull()
      expect(outbound.refusalOf('https://10.20.3.4/x')).toBeNull()
      expect(outbound.refusalOf('http://10.21.0.1/x')).toMatch(/10\.21\.0\.1 is a private address/)
      expect(outbound.refusalOf('https://169.254.169.254/x')).toMatch(/link-local/)
    })
  })

  describe('connects to the address that was checked', () => {
    it('resolves once: a second, different answer of DNS is never used (rebinding)', async () => {
      const checked = await receiver((_req, res) => res.end('checked'))
      // The same port on another loopback address, outside the allow-list: where a second resolution would go.
      const rebound = await receiver((_req, res) => res.end('rebound'), { host: '127.0.0.2', port: checked.port })
      const { resolve, calls } = scriptedResolver(['127.0.0.1'], ['127.0.0.2'])
      const outbound = client({ allow: ['127.0.0.1/32'], resolve })
      const response = await outbound.send({ method: 'GET', url: `http://rebind.example.test:${checked.port}/` })
      expect(response.body).toBe('checked')
      expect(calls).toEqual(['rebind.example.test'])
      expect(rebound.connections).toBe(0)
      expect(checked.requests).toHaveLength(1)
    })

    it('checks every request again, even when a kept-alive connection to the host is open', async () => {
      const local = await receiver((_req, res) => res.end('ok'))
      const { resolve, calls } = scriptedResolver(['127.0.0.1'], ['127.0.0.1'], ['10.0.0.9'], ['127.0.0.1'])
      const outbound = client({ allow: ['127.0.0.1/32'], resolve })
      const url = `http://keep.example.test:${local.port}/`
      expect((await outbound.send({ method: 'GET', url })).body).toBe('ok')
      expect((await outbound.send({ method: 'GET', url })).body).toBe('ok')
      // Both went over one connection, kept alive.
      expect(local.connections).toBe(1)
      const err = await refusal(outbound.send({ method: 'GET', url }))
      expect(err.message).toMatch(/10\.0\.0\.9, a private address/)
      expect(local.requests).toHaveLength(2)
      expect((await outbound.send({ method: 'GET', url })).body).toBe('ok')
      expect(calls).toHaveLength(4)
    })

    it('speaks https to the checked address with the name in SNI and the certificate check', async () => {
      const good = selfSignedCertificate('hooks.example.test', 'DNS:hooks.example.test')
      const tls = await receiver((_req, res) => res.end('secure'), {
        tls: { key: good.key, cert: good.certificate },
      })
      const outbound = client({
        allow: ['127.0.0.1/32'],
        resolve: async () => ['127.0.0.1'],
        ca: good.certificate,
      })
      const response = await outbound.send({
        method: 'POST',
        url: `https://hooks.example.test:${tls.port}${PATH}`,
        body: 'x',
      })
      expect(response).toMatchObject({ status: 200, body: 'secure' })
      expect(tls.requests[0]).toMatchObject({ servername: 'hooks.example.test', url: PATH })
      expect(tls.requests[0]?.headers.host).toBe(`hooks.example.test:${tls.port}`)
      // A certificate for another name fails, though the address is the same and allowed.
      const other = selfSignedCertificate('other.example.test', 'DNS:other.example.test')
      const impostor = await receiver((_req, res) => res.end('impostor'), {
        tls: { key: other.key, cert: other.certificate },
      })
      const err = await failure(
        createOutboundClient({
          allow: ['127.0.0.1/32'],
          resolve: async () => ['127.0.0.1'],
          ca: other.certificate,
        }).send({ method: 'POST', url: `https://hooks.example.test:${impostor.port}${PATH}${QUERY}`, body: 'x' }),
      )
      expect(err.code).toBe('network')
      expect(err.message).toMatch(/TLS with hooks\.example\.test failed/)
      expect(impostor.requests).toHaveLength(0)
    })
  })

  describe('answers', () => {
    it('returns a redirect as it is, never following it', async () => {
      const local = await receiver((req, res) => {
        if (req.url === '/elsewhere') res.end('followed')
        else {
          res.writeHead(302, { Location: '/elsewhere' })
          res.end()
        }
      })
      const outbound = client({ allow: ['127.0.0.1/32'] })
      const response = await outbound.send({ method: 'POST', url: `${local.url}${PATH}`, body: '{}' })
      expect(response.status).toBe(302)
      expect(response.headers.location).toBe('/elsewhere')
      expect(local.requests.map((r) => r.url)).toEqual([PATH])
    })

    it('gives up after the timeout while waiting for an answer, or for the rest of its body', async () => {
      const silent = await receiver(() => {})
      const trickle = await receiver((_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/plain' })
        const timer = setInterval(() => res.write('.'), 50)
        res.on('close', () => clearInterval(timer))
      })
      const outbound = client({ allow: ['127.0.0.1/32'], timeoutMs: 400 })
      for (const local of [silent, trickle]) {
        const started = Date.now()
        const err = await failure(outbound.send({ method: 'POST', url: `${local.url}${PATH}${QUERY}`, body: '{}' }))
        expect(err.code).toBe('timeout')
        expect(err.message).toMatch(/within 400 ms/)
        const took = Date.now() - started
        expect(took).toBeGreaterThanOrEqual(380)
        expect(took).toBeLessThan(2000)
      }
    })

    it('counts name resolution in the timeout', async () => {
      const outbound = client({ timeoutMs: 300, resolve: () => new Promise<string[]>(() => {}) })
      const err = await failure(outbound.send({ method: 'GET', url: `https://slow-dns.example.test${PATH}` }))
      expect(err.code).toBe('timeout')
    })

    it('stops reading at the size cap and says the body was cut', async () => {
      const big = 'x'.repeat(1024 * 1024)
      const local = await receiver((req, res) => res.end(req.url === '/exact' ? 'y'.repeat(1000) : big))
      const outbound = client({ allow: ['127.0.0.1/32'], maxResponseBytes: 1000 })
      const cut = await outbound.send({ method: 'GET', url: `${local.url}/big` })
      expect(cut).toMatchObject({ status: 200, truncated: true })
      expect(cut.body).toBe('x'.repeat(1000))
      const exact = await outbound.send({ method: 'GET', url: `${local.url}/exact` })
      expect(exact).toMatchObject({ truncated: false, body: 'y'.repeat(1000) })
    })

    it('fails without the URL when the receiver is not there, and when it is cancelled', async () => {
      const gone = await receiver()
      await gone.close()
      const outbound = client({ allow: ['127.0.0.1/32'] })
      const err = await failure(outbound.send({ method: 'POST', url: `${gone.url}${PATH}${QUERY}`, body: '{}' }))
      expect(err.code).toBe('network')
      expect(err.message).toMatch(/ECONNREFUSED/)
      const silent = await receiver(() => {})
      const controller = new AbortController()
      const pending = outbound.send({ method: 'GET', url: `${silent.url}${PATH}`, signal: controller.signal })
      setTimeout(() => controller.abort(), 50)
      expect((await failure(pending)).message).toMatch(/cancelled/)
    })
  })
})
