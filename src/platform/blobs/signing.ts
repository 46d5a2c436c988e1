import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto'
import type { Clock } from '../clock.js'

/**
 * Signed download URLs: an HMAC-SHA256 over the path and the expiry instant, with a key derived (HKDF) from the
 * service secret, so the secret itself never signs anything and rotating it voids every URL. Whoever holds the
 * URL may download until it expires; nothing else (no API key) is needed, and no part of it can be changed.
 */
export function createUrlSigner(deps: { secretKey: Buffer; clock: Clock; lifetimeSeconds: number }) {
  const key = Buffer.from(hkdfSync('sha256', deps.secretKey, Buffer.alloc(0), 'costwatch signed download urls', 32))
  const mac = (path: string, expires: number) =>
    createHmac('sha256', key).update(`${path}\n${expires}`).digest('base64url')
  return {
    lifetimeSeconds: deps.lifetimeSeconds,
    /** `path?expires=..&sig=..`; `expires` in Unix seconds. */
    sign(path: string): string {
      const expires = Math.floor(deps.clock.now().getTime() / 1000) + deps.lifetimeSeconds
      return `${path}?expires=${expires}&sig=${mac(path, expires)}`
    },
    /** Whether the signature is the one of this path and expiry, and the expiry is still ahead. */
    verify(path: string, expires: string | undefined, signature: string | undefined): boolean {
      if (!expires || !signature || !/^\d{1,12}$/.test(expires)) return false
      const expected = Buffer.from(mac(path, Number(expires)))
      const given = Buffer.from(signature)
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false
      return deps.clock.now().getTime() < Number(expires) * 1000
    },
  }
}
export type UrlSigner = ReturnType<typeof createUrlSigner>
