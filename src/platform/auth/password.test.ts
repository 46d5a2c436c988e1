import { describe, expect, it } from 'vitest'
import { hashPassword, needsRehash, PASSWORD_HASH_PARAMS, verifyPassword } from './password.js'

// Small cost parameters keep the unit test quick; the format carries them, as it does the defaults.
const CHEAP = { N: 2 ** 10, r: 8, p: 1 }

describe('password hashes', () => {
  it('verifies the password it was made from, and no other', async () => {
    const stored = await hashPassword('correct horse battery', CHEAP)
    expect(stored).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/)
    expect(await verifyPassword('correct horse battery', stored)).toBe(true)
    expect(await verifyPassword('correct horse batterz', stored)).toBe(false)
    expect(await verifyPassword('', stored)).toBe(false)
  })

  it('salts each hash, so one password never gives the same stored value twice', async () => {
    const [a, b] = [await hashPassword('same password!', CHEAP), await hashPassword('same password!', CHEAP)]
    expect(a).not.toBe(b)
    expect(a.split('$')[4]).not.toBe(b.split('$')[4])
  })

  it("uses OWASP 2023's parameters (N = 2^17, r = 8, p = 1) when none are given", async () => {
    expect(PASSWORD_HASH_PARAMS).toEqual({ N: 131072, r: 8, p: 1 })
    const stored = await hashPassword('a long passphrase')
    expect(stored.split('$').slice(0, 4)).toEqual(['scrypt', '131072', '8', '1'])
    expect(await verifyPassword('a long passphrase', stored)).toBe(true)
    expect(needsRehash(stored)).toBe(false)
  })

  it('asks for a new hash of a stored one made with weaker parameters (the former N = 2^15) or another scheme', async () => {
    expect(needsRehash(await hashPassword('a long passphrase', { N: 2 ** 15, r: 8, p: 1 }))).toBe(true)
    expect(needsRehash(await hashPassword('a long passphrase', CHEAP))).toBe(true)
    expect(needsRehash('bcrypt$x')).toBe(true)
  })

  it('never matches a malformed stored value', async () => {
    for (const stored of ['', 'plain', 'scrypt$0$8$1$c2FsdA==$aGFzaA==', 'bcrypt$x', 'scrypt$1024$8$1$$'])
      expect(await verifyPassword('anything at all', stored)).toBe(false)
  })
})
