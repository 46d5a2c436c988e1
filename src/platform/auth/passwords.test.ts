import { describe, expect, it } from 'vitest'
import { hashPassword, passwordProblems, verifyPassword } from './passwords.js'

describe('passwords', () => {
  it('a hash verifies its password and no other, and never contains it', async () => {
    const hash = await hashPassword('correct horse battery staple')
    expect(hash).toMatch(/^scrypt\$15\$8\$3\$[\w-]{22}\$[\w-]{43}$/)
    expect(hash).not.toContain('horse')
    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true)
    expect(await verifyPassword('correct horse battery stapler', hash)).toBe(false)
    expect(await verifyPassword('', hash)).toBe(false)
  })

  it('two hashes of one password differ (salted)', async () => {
    expect(await hashPassword('the same password')).not.toBe(await hashPassword('the same password'))
  })

  it('no stored hash, or a malformed one, never verifies', async () => {
    expect(await verifyPassword('anything at all', null)).toBe(false)
    expect(await verifyPassword('anything at all', 'md5$abc')).toBe(false)
  })

  it('a hash made with other parameters still verifies (they are stored with it)', async () => {
    const hash = await hashPassword('long enough password')
    const parts = hash.split('$')
    expect(await verifyPassword('long enough password', parts.join('$'))).toBe(true)
    parts[1] = '14'
    expect(await verifyPassword('long enough password', parts.join('$'))).toBe(false)
  })

  it('a new password needs 12 characters, counted as characters', () => {
    expect(passwordProblems('short')).toEqual(['must be at least 12 characters'])
    expect(passwordProblems('ééééééééééé')).toEqual(['must be at least 12 characters'])
    expect(passwordProblems('twelve chars')).toEqual([])
    expect(passwordProblems(42)).toEqual(['must be a string'])
  })
})
