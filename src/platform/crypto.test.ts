import { describe, expect, it } from 'vitest'
import { apiKeyDisplayPrefix, createSecretBox, generateApiKey, isWellFormedApiKey } from './crypto.js'

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

  it('round-trips, with a fresh IV each time', () => {
    const a = box.seal('hunter2')
    expect(a).not.toBe(box.seal('hunter2'))
    expect(box.open(a)).toBe('hunter2')
  })

  it('refuses a tampered value and another key', () => {
    const sealed = box.seal('hunter2')
    const raw = Buffer.from(sealed.slice(3), 'base64')
    raw[raw.length - 1]! ^= 1
    expect(() => box.open(`v1:${raw.toString('base64')}`)).toThrow()
    expect(() => createSecretBox(Buffer.alloc(32, 2)).open(sealed)).toThrow()
    expect(() => createSecretBox(Buffer.alloc(16))).toThrow(/32 bytes/)
  })
})
