import { createCipheriv } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  apiKeyDisplayPrefix,
  createSecretBox,
  generateApiKey,
  isWellFormedApiKey,
  SealedSecretError,
  secretKeyId,
} from './crypto.js'

describe('API keys', () => {
  it('are cw_ + 40 base62 characters + a 6-character checksum, all different', () => {
    const keys = Array.from({ length: 200 }, generateApiKey)
    for (const key of keys) {
      expect(key).toMatch(/^cw_[0-9A-Za-z]{46}$/)
      expect(isWellFormedApiKey(key)).toBe(true)
    }
    expect(new Set(keys).size).toBe(keys.length)
    expect(apiKeyDisplayPrefix(keys[0]!)).toBe(keys[0]!.slice(0, 10))
  })

  it('fail the checksum when any random character changes', () => {
    const key = generateApiKey()
    for (let i = 3; i < 43; i++) {
      const swapped = key[i] === 'a' ? 'b' : 'a'
      expect(isWellFormedApiKey(key.slice(0, i) + swapped + key.slice(i + 1)), `position ${i}`).toBe(false)
    }
  })
})

describe('secret box', () => {
  const box = createSecretBox(Buffer.alloc(32, 1))
  const purpose = 'tenant:t1:clientSecret'

  it('round-trips as v2 with the key id, with a fresh IV each time', () => {
    const a = box.seal('hunter2', purpose)
    expect(a).toMatch(new RegExp(`^v2:${secretKeyId(Buffer.alloc(32, 1))}:`))
    expect(box.keyId).toMatch(/^[0-9a-f]{8}$/)
    expect(a).not.toBe(box.seal('hunter2', purpose))
    expect(box.open(a, purpose)).toBe('hunter2')
    expect(box.isCurrent(a)).toBe(true)
  })

  it('refuses a tampered value, another key, and another row or purpose', () => {
    const sealed = box.seal('hunter2', purpose)
    const [, kid, body] = sealed.split(':')
    const raw = Buffer.from(body!, 'base64')
    raw[raw.length - 1]! ^= 1
    expect(() => box.open(`v2:${kid}:${raw.toString('base64')}`, purpose)).toThrow(SealedSecretError)
    expect(() => createSecretBox(Buffer.alloc(32, 2)).open(sealed, purpose)).toThrow(/sealed under secret key/)
    expect(() => box.open(sealed, 'tenant:t2:clientSecret')).toThrow(/does not open/)
    expect(() => box.open(sealed, 'mail:t1:body')).toThrow(/does not open/)
    // A forged key id does not make another key's value open either.
    const other = createSecretBox(Buffer.alloc(32, 2)).seal('x', purpose)
    expect(() => box.open(other.replace(/^v2:[0-9a-f]{8}:/, `v2:${kid}:`), purpose)).toThrow(/does not open/)
    expect(() => createSecretBox(Buffer.alloc(16))).toThrow(/32 bytes/)
  })

  it('still opens v1 values, and an older key given to it, never sealing with them', () => {
    const key = Buffer.alloc(32, 1)
    const iv = Buffer.alloc(12, 3)
    const cipher = createCipheriv('aes-256-gcm', key, iv)
    const body = Buffer.concat([cipher.update('legacy', 'utf8'), cipher.final()])
    const v1 = `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`
    expect(box.open(v1, purpose)).toBe('legacy')
    expect(box.isCurrent(v1)).toBe(false)
    const rotated = createSecretBox(Buffer.alloc(32, 9), [key])
    expect(rotated.open(v1, purpose)).toBe('legacy')
    expect(rotated.open(box.seal('old', purpose), purpose)).toBe('old')
    expect(rotated.seal('new', purpose)).toMatch(new RegExp(`^v2:${rotated.keyId}:`))
    expect(rotated.keyId).not.toBe(box.keyId)
    expect(() => createSecretBox(Buffer.alloc(32, 9)).open(v1, purpose)).toThrow(/v1/)
  })
})
