import { execFileSync } from 'node:child_process'
import { X509Certificate } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Fetch } from '../../../src/connectors/azure/http.js'

export interface KeyAndCertificate {
  key: string
  certificate: string
  /** SHA-1 of the certificate, upper-case hex: what Azure calls the thumbprint. */
  thumbprint: string
  thumbprintSha256: string
}

/**
 * A throwaway self-signed certificate made by openssl (node:crypto cannot build X.509), valid for two days.
 * MSAL refuses an authority that is not https, so the fake serves TLS with one of these, and the app
 * registration of the certificate tenant uses another.
 */
export function selfSignedCertificate(commonName: string, subjectAltName?: string): KeyAndCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'costwatch-cert-'))
  try {
    const args = ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', `/CN=${commonName}`]
    if (subjectAltName) args.push('-addext', `subjectAltName=${subjectAltName}`)
    args.push('-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'))
    execFileSync('openssl', args, { stdio: 'pipe' })
    const key = readFileSync(join(dir, 'key.pem'), 'utf8')
    const certificate = readFileSync(join(dir, 'cert.pem'), 'utf8')
    const x509 = new X509Certificate(certificate)
    return {
      key,
      certificate,
      thumbprint: x509.fingerprint.replaceAll(':', ''),
      thumbprintSha256: x509.fingerprint256.replaceAll(':', ''),
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * A `fetch` for tests that trusts only the given CA and refuses any host but 127.0.0.1, so a test that would
 * reach the real Azure fails instead. Every host it was asked for is pushed to `hostsSeen`.
 */
export function fetchTrusting(ca: string, hostsSeen: string[] = []): Fetch {
  return (url, init) =>
    new Promise<Response>((resolve, reject) => {
      const target = new URL(url)
      hostsSeen.push(target.host)
      if (target.hostname !== '127.0.0.1') {
        reject(new Error(`test traffic must stay on 127.0.0.1, not ${target.host}`))
        return
      }
      const send = target.protocol === 'https:' ? https.request : http.request
      const request = send(target, { method: init.method, headers: init.headers, ca, signal: init.signal }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('error', reject)
        res.on('end', () => {
          const headers = new Headers()
          for (const [name, value] of Object.entries(res.headers)) {
            for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
              headers.append(name, one)
          }
          const status = res.statusCode ?? 500
          const body = status === 204 || status === 304 ? null : Buffer.concat(chunks)
          resolve(new Response(body, { status, headers }))
        })
      })
      request.on('error', reject)
      request.end(init.body)
    })
}
