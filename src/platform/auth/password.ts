import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto'

/** At least this many characters; no other composition rule (NIST SP 800-63B). */
export const PASSWORD_MIN_LENGTH = 12
/** An upper bound keeps one hash from costing much more than another. */
export const PASSWORD_MAX_LENGTH = 1024

export interface ScryptParams {
  N: number
  r: number
  p: number
}

/**
 * scrypt's cost parameters: OWASP's 2023 minimum (N = 2^17, r = 8, p = 1): 128 MiB and about 0.7 s
 * a hash on a busy 2-core machine (0.14 s at the former N = 2^15).
 * Node runs at most 4 at once (its thread pool), and a client over its address limit is refused before any.
 */
export const PASSWORD_HASH_PARAMS: Readonly<ScryptParams> = Object.freeze({ N: 2 ** 17, r: 8, p: 1 })
/** What new hashes use: the defaults, unless a test suite chose cheaper ones (`useHashParamsForTests`). */
let current: Readonly<ScryptParams> = PASSWORD_HASH_PARAMS

/**
 * For test suites only, which sign in hundreds of times: new hashes use `params` in this process. Production code
 * never calls it (a test checks the defaults are used otherwise).
 */
export function useHashParamsForTests(params: ScryptParams): void {
  current = Object.freeze({ ...params })
}
const KEY_BYTES = 32
const SALT_BYTES = 16

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r + 1024 * 1024 }
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (err, key) => (err ? reject(err) : resolve(key))),
  )
}

/**
 * `scrypt$N$r$p$salt$hash` (salt and hash base64): the parameters travel with each hash, so they can be raised
 * later without invalidating the stored ones.
 */
export async function hashPassword(password: string, params: ScryptParams = current): Promise<string> {
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

/**
 * Whether a stored hash was made with weaker parameters than new hashes get (or is not ours): it is made again
 * from the password at the next successful sign-in.
 */
export function needsRehash(stored: string): boolean {
  const [scheme, n, r, p] = stored.split('$')
  if (scheme !== 'scrypt') return true
  return Number(n) < current.N || Number(r) < current.r || Number(p) < current.p
}

/**
 * After a wrong password against `stored`, spends what a check against a hash of today's parameters costs beyond
 * it (derivations of nothing, halving N down): an account whose old hash awaits its rehash is not told apart from
 * another, or from an unknown address, by a quicker 401.
 */
export async function padVerification(stored: string): Promise<void> {
  const [scheme, n, r, p] = stored.split('$')
  if (scheme !== 'scrypt') return
  // scrypt's work is proportional to N * r * p; the padding derives with today's r and p = 1.
  let rest = (current.N * current.r * current.p - Number(n) * Number(r) * Number(p)) / current.r
  if (!Number.isFinite(rest) || rest <= 0) return
  const salt = randomBytes(SALT_BYTES)
  for (let N = current.N; N >= 2 && rest >= 2; N /= 2)
    while (rest >= N) {
      await derive('', salt, { N, r: current.r, p: 1 })
      rest -= N
    }
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
