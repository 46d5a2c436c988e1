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

/**
 * AES-256-GCM for secrets at rest. Stored form: `v2:<key id>:` + base64(iv | tag | ciphertext), sealed with
 * associated data that names the value's row and purpose (`tenant:<id>:clientSecret`): a sealed value copied to
 * another row or column does not open. The key id (`secretKeyId`) says which key sealed it, so a value of another
 * key is refused by name rather than as a failed tag. `v1:` (no key id, no associated data) is still read.
 */
export interface SecretBox {
  /** The current key's id, in every value `seal` makes. */
  readonly keyId: string
  seal(plaintext: string, purpose: string): string
  open(sealed: string, purpose: string): string
  /** Sealed in today's format under the current key: nothing for `costwatch secrets reseal` to do. */
  isCurrent(sealed: string): boolean
}

export class SealedSecretError extends Error {}

/** Eight hex digits of a hash of the key: names it in sealed values and messages without revealing it. */
export function secretKeyId(key: Buffer): string {
  return hash('sha256', Buffer.concat([Buffer.from('costwatch secret key id\0'), key]), 'hex').slice(0, 8)
}

const SEALED_V2 = /^v2:([0-9a-f]{8}):([A-Za-z0-9+/]+={0,2})$/

function openWith(key: Buffer, raw: Buffer, aad: Buffer | null): string {
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12))
  if (aad) decipher.setAAD(aad)
  decipher.setAuthTag(raw.subarray(12, 28))
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')
}

/**
 * `key` seals; it and `olderKeys` open (the re-seal command passes the key being retired). Messages name keys
 * and purposes, never a value.
 */
export function createSecretBox(key: Buffer, olderKeys: Buffer[] = []): SecretBox {
  for (const k of [key, ...olderKeys]) if (k.length !== 32) throw new Error('The secret key must be 32 bytes')
  const keyId = secretKeyId(key)
  const keys = new Map<string, Buffer>([key, ...olderKeys].map((k) => [secretKeyId(k), k]))
  return {
    keyId,
    seal(plaintext, purpose) {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      cipher.setAAD(Buffer.from(purpose, 'utf8'))
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
      return `v2:${keyId}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`
    },
    open(sealed, purpose) {
      const v2 = SEALED_V2.exec(sealed)
      if (v2) {
        const k = keys.get(v2[1]!)
        if (!k)
          throw new SealedSecretError(
            `The ${purpose} value was sealed under secret key ${v2[1]}, not the current key ${keyId}: ` +
              'run `costwatch secrets reseal --old-key` with that key, or set it back as COSTWATCH_SECRET_KEY.',
          )
        try {
          return openWith(k, Buffer.from(v2[2]!, 'base64'), Buffer.from(purpose, 'utf8'))
        } catch {
          throw new SealedSecretError(`The ${purpose} value does not open: it was altered or belongs elsewhere.`)
        }
      }
      if (sealed.startsWith('v1:')) {
        // The first format names no key: each known one is tried, the current first.
        const raw = Buffer.from(sealed.slice(3), 'base64')
        for (const k of keys.values()) {
          try {
            return openWith(k, raw, null)
          } catch {}
        }
        throw new SealedSecretError(`The ${purpose} value (v1) does not open with the current key ${keyId}.`)
      }
      throw new SealedSecretError(`The ${purpose} value is not in a known sealed format.`)
    },
    isCurrent(sealed) {
      return SEALED_V2.exec(sealed)?.[1] === keyId
    },
  }
}
