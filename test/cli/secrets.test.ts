import { createCipheriv } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createSecretBox } from '../../src/platform/crypto.js'
import { TEST_SECRET_KEY, useTestApp } from '../support/app.js'
import { runCli } from '../support/cli.js'
import { testDialects } from '../support/dialects.js'

const API = '/api/public/v1'
const CLIENT_ID = '0f8fad5b-d9cb-469f-a165-70867728950e'
const CANARY_A = 'canary-secret-of-tenant-a~Zq9'
const CANARY_B = 'canary-secret-of-tenant-b~Wx7'
const CANARY_MAIL = 'https://costwatch.example/reset?token=canary-mail-link'
const OLD_KEY = Buffer.from(TEST_SECRET_KEY, 'base64')
const NEW_KEY = Buffer.alloc(32, 42)

/** What the first format stored: AES-256-GCM without associated data, `v1:` + base64(iv | tag | ciphertext). */
function sealV1(key: Buffer, plaintext: string): string {
  const iv = Buffer.alloc(12, 5)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
  return `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`
}

for (const dialect of testDialects()) {
  describe(`${dialect}: secrets at rest, bound to their row, and rotated from the command line`, () => {
    const t = useTestApp({ dialect })
    const dir = mkdtempSync(join(tmpdir(), 'costwatch-keys-'))
    const oldKeyFile = join(dir, 'old.key')
    writeFileSync(oldKeyFile, `${TEST_SECRET_KEY}\n`, { mode: 0o600 })
    afterAll(() => rmSync(dir, { recursive: true, force: true }))
    const withNewKey = () => ({
      COSTWATCH_DATABASE_URL: t.databaseUrl,
      COSTWATCH_SECRET_KEY: NEW_KEY.toString('base64'),
    })
    let ownerKey: string
    let organisationId: string
    let tenantA: string
    let tenantB: string
    let mailId: string

    const sealedOf = async (id: string) =>
      (
        await t.db.kysely
          .selectFrom('tenants')
          .select('clientSecretSealed')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).clientSecretSealed!
    const setSealed = (id: string, value: string | null) =>
      t.db.kysely.updateTable('tenants').set({ clientSecretSealed: value }).where('id', '=', id).execute()
    const mailBody = async () =>
      (
        await t.db.kysely
          .selectFrom('mailOutbox')
          .select('bodySealed')
          .where('id', '=', mailId)
          .executeTakeFirstOrThrow()
      ).bodySealed!
    /** A snapshot through the API and one worker turn: the run as the API then shows it. */
    const snapshot = async (tenantId: string) => {
      const run = (await t.request('POST', `${API}/tenants/${tenantId}/snapshots`, ownerKey)).json()
      // The queue also holds the outbox's message: turns until the snapshot is done.
      const worker = t.worker()
      for (let turn = 0; turn < 5; turn++) {
        await worker.runOnce()
        const now = (await t.request('GET', `${API}/tenants/${tenantId}/snapshots/${run.id}`, ownerKey)).json()
        if (now.status !== 'Queued' && now.status !== 'Running') return now
      }
      throw new Error('the snapshot did not finish')
    }

    it('seals with a key id and binds each value to its row; an old v1 value still opens', async () => {
      const org = await t.given.organisation()
      ownerKey = org.ownerKey
      organisationId = org.organisationId
      const create = async (name: string, secret: string) => {
        const res = await t.request('POST', `${API}/tenants`, ownerKey, {
          name,
          cloudTenantId: `${name.toLowerCase()}.example.com`,
          credentialType: 'ServicePrincipalSecret',
          clientId: CLIENT_ID,
          clientSecret: secret,
        })
        expect(res.statusCode, res.body).toBe(201)
        return res.json().id as string
      }
      tenantA = await create('Alpha', CANARY_A)
      tenantB = await create('Beta', CANARY_B)
      expect(await sealedOf(tenantA)).toMatch(new RegExp(`^v2:${t.services.secrets.keyId}:`))

      // Written before associated data and key ids: read as before.
      await setSealed(tenantB, sealV1(OLD_KEY, CANARY_B))
      expect((await snapshot(tenantB)).status).toBe('Succeeded')
    })

    it("refuses another tenant's sealed secret copied into a row, and the run says why", async () => {
      const own = await sealedOf(tenantB)
      const ofA = await sealedOf(tenantA)
      await setSealed(tenantB, ofA)
      try {
        const run = await snapshot(tenantB)
        expect(run.status).toBe('Failed')
        expect(run.error.code).toBe('invalid_credentials')
        expect(run.error.message).toContain('does not open')
        expect(JSON.stringify(run)).not.toContain(CANARY_A)
      } finally {
        await setSealed(tenantB, own)
      }
      // Moved into the outbox, a tenant's secret does not open as a message body either.
      expect(t.services.secrets.open(ofA, `tenant:${tenantA}:clientSecret`)).toBe(CANARY_A)
      expect(() => t.services.secrets.open(ofA, `mail:${tenantA}:body`)).toThrow(/does not open/)
    })

    it('reseal without the old key opens nothing, changes nothing and exits 1, naming rows, never values', async () => {
      // Queued now, so that no worker turn above delivered (and emptied) it.
      mailId = await t.services.outbox.queue(t.db.kysely, organisationId, {
        to: 'someone@example.com',
        subject: 'Reset',
        text: CANARY_MAIL,
      })
      expect(await mailBody()).toMatch(/^v2:/)
      const before = [await sealedOf(tenantA), await sealedOf(tenantB), await mailBody()]
      const res = await runCli(['secrets', 'reseal'], withNewKey())
      expect(res.code).toBe(1)
      expect(res.stderr).toContain(`tenants ${tenantA}`)
      expect(res.stderr).toContain('--old-key')
      for (const canary of [CANARY_A, CANARY_B, CANARY_MAIL, TEST_SECRET_KEY])
        expect(res.stdout + res.stderr).not.toContain(canary)
      expect([await sealedOf(tenantA), await sealedOf(tenantB), await mailBody()]).toEqual(before)
    })

    it('reseal --old-key moves every value to the new key, printing progress and a count; a second run does nothing', async () => {
      const res = await runCli(['secrets', 'reseal', '--old-key', oldKeyFile], withNewKey())
      expect(res.code, res.stderr).toBe(0)
      const newBox = createSecretBox(NEW_KEY)
      expect(res.stdout).toContain('tenants.clientSecretSealed: 2 read, 2 re-sealed')
      expect(res.stdout).toContain('mailOutbox.bodySealed: 1 read, 1 re-sealed')
      expect(res.stdout).toContain(`3 re-sealed under key ${newBox.keyId}, 0 already current, 0 could not be opened.`)
      for (const canary of [CANARY_A, CANARY_B, CANARY_MAIL]) expect(res.stdout + res.stderr).not.toContain(canary)

      for (const [id, canary] of [
        [tenantA, CANARY_A],
        [tenantB, CANARY_B],
      ] as const) {
        const sealed = await sealedOf(id)
        expect(sealed).toMatch(new RegExp(`^v2:${newBox.keyId}:`))
        expect(newBox.open(sealed, `tenant:${id}:clientSecret`)).toBe(canary)
        expect(() => t.services.secrets.open(sealed, `tenant:${id}:clientSecret`)).toThrow(/not the current key/)
      }
      expect(JSON.parse(newBox.open(await mailBody(), `mail:${mailId}:body`)).text).toBe(CANARY_MAIL)

      const again = await runCli(['secrets', 'reseal', '--old-key', TEST_SECRET_KEY, '--json'], withNewKey())
      expect(again.code, again.stderr).toBe(0)
      expect(JSON.parse(again.stdout)).toEqual({ keyId: newBox.keyId, resealed: 0, unchanged: 3, failed: [] })
    })

    it('refuses an --old-key that is not a 32-byte key, without repeating it', async () => {
      const res = await runCli(['secrets', 'reseal', '--old-key', 'c2hvcnQta2V5'], withNewKey())
      expect(res.code).toBe(1)
      expect(res.stderr).toContain('--old-key: must be a 32-byte key in base64, or a file holding one')
      expect(res.stderr).not.toContain('c2hvcnQta2V5')
    })
  })
}
