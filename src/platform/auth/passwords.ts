import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto'

/**
 * Password hashes: scrypt from node:crypto (no native dependency), with OWASP's "N=2^15, r=8, p=3" setting, about
 * 32 MiB and tens of milliseconds a hash, on the libuv pool so the event loop keeps serving. The stored form
 * carries its parameters and salt (`scrypt$15$8$3$salt$hash`, base64url), so the cost can rise later and old
 * hashes still verify.
 */
const LOG_N = 15
const R = 8
const P = 3
const KEY_BYTES = 32
const SALT_BYTES = 16

/** What a password must be: long enough to resist guessing; anything else (spaces, any script) is fine. */
export const MIN_PASSWORD_LENGTH = 12
export const MAX_PASSWORD_LENGTH = 1024

function derive(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** logN, r, p, maxmem: 2 * 128 * r * 2 ** logN + 1024 * 1024 }
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (err, key) => (err ? reject(err) : resolve(key))),
  )
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES)
  const key = await derive(password, salt, LOG_N, R, P)
  return ['scrypt', LOG_N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$')
}

/** A hash to verify against when there is no account, so "no such user" takes as long as "wrong password". */
let decoy: Promise<string> | null = null

/** Whether `password` matches `stored`; with no stored hash, spends the same time and answers false. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (stored === null) {
    decoy ??= hashPassword(randomBytes(16).toString('hex'))
    await verifyPassword(password, await decoy)
    return false
  }
  const [scheme, logN, r, p, salt, key] = stored.split('$')
  if (scheme !== 'scrypt' || !salt || !key) return false
  const expected = Buffer.from(key, 'base64url')
  const actual = await derive(password, Buffer.from(salt, 'base64url'), Number(logN), Number(r), Number(p))
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

/** Field errors of a new password, none when it is acceptable. */
export function passwordProblems(password: unknown): string[] {
  if (typeof password !== 'string') return ['must be a string']
  if ([...password].length < MIN_PASSWORD_LENGTH) return [`must be at least ${MIN_PASSWORD_LENGTH} characters`]
  if (password.length > MAX_PASSWORD_LENGTH) return [`must be at most ${MAX_PASSWORD_LENGTH} characters`]
  return []
}
