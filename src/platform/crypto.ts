import { createCipheriv, createDecipheriv, hash, randomBytes } from 'node:crypto'
import { crc32 } from 'node:zlib'

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const KEY_RANDOM_CHARS = 40 // 40 * log2(62) = 238 bits of randomness
const KEY_CHECKSUM_CHARS = 6 // CRC-32 < 62^6, so six base62 digits hold it
export const API_KEY_PREFIX = 'cw_'
export const API_KEY_DISPLAY_CHARS = 10
const API_KEY_PATTERN = /^cw_[0-9A-Za-z]{46}$/

function randomBase62(length: number): string {
  let out = ''
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 * 62: rejecting bytes above it keeps every digit equally likely
      if (byte < 248 && out.length < length) out += BASE62[byte % 62]
    }
  }
  return out
}

function base62Fixed(value: number, width: number): string {
  let out = ''
  let rest = value
  for (let i = 0; i < width; i++) {
    out = BASE62[rest % 62] + out
    rest = Math.floor(rest / 62)
  }
  return out
}

function checksumOf(random: string): string {
  return base62Fixed(crc32(random), KEY_CHECKSUM_CHARS)
}

/** `cw_` + 40 random base62 characters + a 6-character CRC-32 checksum, so secret scanners can spot a leak. */
export function generateApiKey(): string {
  const random = randomBase62(KEY_RANDOM_CHARS)
  return `${API_KEY_PREFIX}${random}${checksumOf(random)}`
}

/** Shape and checksum only: a malformed key is rejected without touching the database. */
export function isWellFormedApiKey(value: string): boolean {
  if (!API_KEY_PATTERN.test(value)) return false
  const random = value.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + KEY_RANDOM_CHARS)
  return value.endsWith(checksumOf(random))
}

/** One-shot `hash`: a third of `createHash().update().digest()`'s cost, and it runs on every keyed request. */
export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex')
}

export function apiKeyDisplayPrefix(apiKey: string): string {
  return apiKey.slice(0, API_KEY_DISPLAY_CHARS)
}

/** AES-256-GCM for secrets at rest. Stored form: `v1:` + base64(iv | tag | ciphertext). */
export interface SecretBox {
  seal(plaintext: string): string
  open(sealed: string): string
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('The secret key must be 32 bytes')
  return {
    seal(plaintext) {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
      return `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`
    },
    open(sealed) {
      if (!sealed.startsWith('v1:')) throw new Error('Unknown sealed secret format')
      const raw = Buffer.from(sealed.slice(3), 'base64')
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12))
      decipher.setAuthTag(raw.subarray(12, 28))
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')
    },
  }
}
