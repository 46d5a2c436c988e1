import { describe, expect, it } from 'vitest'
import { loadConfig } from './config.js'

const base = { COSTWATCH_SECRET_KEY: Buffer.alloc(32, 1).toString('base64'), COSTWATCH_DATABASE_URL: ':memory:' }

describe('mail settings', () => {
  it('takes an smtp:// or smtps:// URL, and names the sender after the public URL unless told', () => {
    const config = loadConfig({
      ...base,
      COSTWATCH_SMTP_URL: 'smtp://mailer:secret@mail.example.com:587',
      COSTWATCH_PUBLIC_URL: 'https://costs.example.com',
    })
    expect(config.smtpUrl).toBe('smtp://mailer:secret@mail.example.com:587')
    expect(config.mailFrom).toBe('Costwatch <costwatch@costs.example.com>')
    expect(loadConfig({ ...base, COSTWATCH_MAIL_FROM: 'Ops <ops@example.com>' }).mailFrom).toBe('Ops <ops@example.com>')
    expect(loadConfig(base).smtpUrl).toBeNull()
  })

  it('refuses a bad SMTP URL without repeating it (it may hold a password)', () => {
    for (const url of ['http://mail.example.com', 'smtp://', 'mail.example.com:25']) {
      const load = () => loadConfig({ ...base, COSTWATCH_SMTP_URL: url })
      expect(load).toThrow('Setting COSTWATCH_SMTP_URL: must be an smtp:// or smtps:// URL with a host')
    }
    expect(() => loadConfig({ ...base, COSTWATCH_SMTP_URL: 'smtp://u:hunter2secret@' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('hunter2secret') }),
    )
  })
})

describe('host credential organisations', () => {
  it('reads a comma-separated list of organisation ids, lower-cased; unset or empty is none', () => {
    expect(loadConfig(base).hostCredentialOrganisations).toBeNull()
    expect(loadConfig({ ...base, COSTWATCH_HOST_CREDENTIAL_ORGS: ' ' }).hostCredentialOrganisations).toBeNull()
    const ids = '01A21E52-6782-76CB-ACA5-B3030199A77C, 01a21e52-6783-7480-a15a-658405aaeabb'
    expect(loadConfig({ ...base, COSTWATCH_HOST_CREDENTIAL_ORGS: ids }).hostCredentialOrganisations).toEqual([
      '01a21e52-6782-76cb-aca5-b3030199a77c',
      '01a21e52-6783-7480-a15a-658405aaeabb',
    ])
  })

  it('refuses anything but organisation ids', () => {
    expect(() => loadConfig({ ...base, COSTWATCH_HOST_CREDENTIAL_ORGS: 'Acme' })).toThrow(
      'Setting COSTWATCH_HOST_CREDENTIAL_ORGS: must be organisation ids separated by commas, got "acme"',
    )
  })
})

describe('SQLite durability', () => {
  it('syncs at checkpoints by default (NORMAL), at every commit with FULL, and refuses anything else', async () => {
    expect(loadConfig(base).sqliteSynchronous).toBe('NORMAL')
    expect(loadConfig({ ...base, COSTWATCH_SQLITE_SYNCHRONOUS: 'FULL' }).sqliteSynchronous).toBe('FULL')
    expect(() => loadConfig({ ...base, COSTWATCH_SQLITE_SYNCHRONOUS: 'OFF' })).toThrow(
      'Setting COSTWATCH_SQLITE_SYNCHRONOUS: must be one of FULL, NORMAL, got "OFF"',
    )
    // What the connection runs with: SQLite reads back 1 for NORMAL, 2 for FULL.
    const { mkdtempSync, rmSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const { join } = await import('node:path')
    const { openDatabase } = await import('./platform/db/index.js')
    const { sql } = await import('kysely')
    const dir = mkdtempSync(join(tmpdir(), 'costwatch-sync-'))
    try {
      for (const [synchronous, level] of [
        [undefined, 1],
        ['NORMAL', 1],
        ['FULL', 2],
      ] as const) {
        const db = openDatabase(join(dir, `${synchronous ?? 'default'}.db`), { synchronous })
        const read = await sql<{ synchronous: number }>`pragma synchronous`.execute(db.kysely)
        expect(read.rows[0]!.synchronous).toBe(level)
        await db.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('HTTP settings', () => {
  it('COSTWATCH_TRUST_PROXY takes addresses, CIDR ranges and the named ranges; none by default', () => {
    expect(loadConfig(base).trustedProxies).toEqual([])
    const config = loadConfig({ ...base, COSTWATCH_TRUST_PROXY: ' 10.0.0.5, 10.1.0.0/16,fd00::/8 , ::1, loopback' })
    expect(config.trustedProxies).toEqual(['10.0.0.5', '10.1.0.0/16', 'fd00::/8', '::1', 'loopback'])
    for (const bad of ['proxy.example.com', '10.0.0.0/33', '10.0.0.0/8/8', '*', 'true', '10.0.0.256']) {
      expect(() => loadConfig({ ...base, COSTWATCH_TRUST_PROXY: bad })).toThrow(
        `Setting COSTWATCH_TRUST_PROXY: "${bad}" is not an IP address or CIDR range`,
      )
    }
  })

  it('COSTWATCH_METRICS_TOKEN: unset by default, at least 16 characters, never repeated in an error', () => {
    expect(loadConfig(base).metricsToken).toBeNull()
    expect(loadConfig({ ...base, COSTWATCH_METRICS_TOKEN: 'a-long-enough-token' }).metricsToken).toBe(
      'a-long-enough-token',
    )
    for (const bad of ['short-secret', 'a token with spaces in it']) {
      expect(() => loadConfig({ ...base, COSTWATCH_METRICS_TOKEN: bad })).toThrow(
        expect.objectContaining({
          message: expect.stringMatching(/^Setting COSTWATCH_METRICS_TOKEN: must be at least 16 printable/),
        }),
      )
      expect(() => loadConfig({ ...base, COSTWATCH_METRICS_TOKEN: bad })).toThrow(
        expect.objectContaining({ message: expect.not.stringContaining(bad) }),
      )
    }
  })
})

describe('settling window', () => {
  it('COSTWATCH_AZURE_SETTLING_DAYS: 2 days by default, 0 to 14, anything else refused', () => {
    expect(loadConfig(base).azureSettlingDays).toBe(2)
    expect(loadConfig({ ...base, COSTWATCH_AZURE_SETTLING_DAYS: '0' }).azureSettlingDays).toBe(0)
    expect(loadConfig({ ...base, COSTWATCH_AZURE_SETTLING_DAYS: '14' }).azureSettlingDays).toBe(14)
    for (const raw of ['15', '-1', '1.5', 'two'])
      expect(() => loadConfig({ ...base, COSTWATCH_AZURE_SETTLING_DAYS: raw })).toThrow(
        `Setting COSTWATCH_AZURE_SETTLING_DAYS: must be a whole number from 0 to 14, got "${raw}"`,
      )
  })

  it('reads COSTWATCH_OUTBOUND_ALLOW as CIDRs, a bare address as its own network, and refuses anything else', () => {
    expect(loadConfig(base).outboundAllow).toEqual([])
    expect(
      loadConfig({ ...base, COSTWATCH_OUTBOUND_ALLOW: ' 10.1.2.0/24, fd00::/8 ,127.0.0.1' }).outboundAllow,
    ).toEqual(['10.1.2.0/24', 'fd00::/8', '127.0.0.1/32'])
    for (const bad of ['10.1.2.0/33', 'fd00::/129', 'example.com', '10.1.2.0/24/1', '10.1.2.0/x'])
      expect(() => loadConfig({ ...base, COSTWATCH_OUTBOUND_ALLOW: bad })).toThrow(/COSTWATCH_OUTBOUND_ALLOW/)
  })
})
