import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto'

/** At least this many characters; no other composition rule (NIST SP 800-63B). */
export const PASSWORD_MIN_LENGTH = 12
/** An upper bound keeps one hash from costing much more than another. */
export const PASSWORD_MAX_LENGTH = 1024

/** scrypt's cost parameters (N = 2^15, r = 8, p = 1: about 32 MiB and a few dozen ms a hash). */
const DEFAULTS = { N: 2 ** 15, r: 8, p: 1 }
const KEY_BYTES = 32
const SALT_BYTES = 16

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r + 1024 * 1024 }
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (err, key) => (err ? reject(err) : resolve(key))),
  )
}

/**
 * `scrypt$N$r$p$salt$hash` (salt and hash base64): the parameters travel with each hash, so they can be raised
 * later without invalidating the stored ones.
 */
export async function hashPassword(password: string, params = DEFAULTS): Promise<string> {
  const salt = randomBytes(SALT_BYTES)
  const key = await derive(password, salt, params)
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$')
}

/** Whether `password` matches `stored`; compared in constant time. A malformed stored value never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$')
  if (scheme !== 'scrypt' || !salt || !hash) return false
  const params = { N: Number(n), r: Number(r), p: Number(p) }
  if (!Object.values(params).every((v) => Number.isInteger(v) && v > 0)) return false
  const expected = Buffer.from(hash, 'base64')
  const actual = await derive(password, Buffer.from(salt, 'base64'), params)
  return expected.length === actual.length && timingSafeEqual(expected, actual)
}

/** What is wrong with a new password, if anything (its length: the only rule). */
export function passwordProblems(password: string): string[] {
  if (password.length < PASSWORD_MIN_LENGTH) return [`must be at least ${PASSWORD_MIN_LENGTH} characters`]
  if (password.length > PASSWORD_MAX_LENGTH) return [`must be at most ${PASSWORD_MAX_LENGTH} characters`]
  return []
}

/** A hash of nothing anyone knows, made once, to verify against when there is no account. */
let decoy: Promise<string> | null = null

/**
 * Spends the time a wrong password takes, for an address without an account or a password: "no such user"
 * and "wrong password" cannot be told apart by how long the answer takes.
 */
export async function verifyNothing(password: string): Promise<false> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'))
  await verifyPassword(password, await decoy)
  return false
}
