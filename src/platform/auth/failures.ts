import { ApiError } from '../http/errors.js'

const WINDOW_MS = 60_000
/** Addresses tracked at most; beyond it the oldest windows are forgotten (a flood from many addresses stays bounded). */
const MAX_ADDRESSES = 100_000

/**
 * Failed authentications per client address, in one-minute windows, per process (like the per-key limit). Past
 * `maxPerMinute`, a request whose key fails gets 429 with Retry-After instead of 401. Only failures are counted and
 * only failures are refused: a valid key from the same address is verified and served as usual, within its own limit.
 */
export function createAuthFailureLimiter(maxPerMinute: number, now: () => number = Date.now) {
  const windows = new Map<string, { failures: number; resetAt: number }>()

  function forgetExpired(at: number) {
    for (const [address, w] of windows) if (w.resetAt <= at) windows.delete(address)
    for (const address of windows.keys()) {
      if (windows.size <= MAX_ADDRESSES) break
      windows.delete(address)
    }
  }

  return {
    /** Counts a failure of `address`; returns the error to answer with: `failure` itself, or a 429 past the limit. */
    failed(address: string, failure: unknown): unknown {
      // Only a refused key counts: a database that fails during verification stays the 500 it is.
      if (!(failure instanceof ApiError) || failure.status !== 401) return failure
      const at = now()
      let w = windows.get(address)
      if (!w || w.resetAt <= at) {
        if (windows.size >= MAX_ADDRESSES) forgetExpired(at)
        w = { failures: 0, resetAt: at + WINDOW_MS }
        windows.delete(address)
        windows.set(address, w)
      }
      w.failures++
      if (w.failures <= maxPerMinute) return failure
      const retryAfter = Math.max(1, Math.ceil((w.resetAt - at) / 1000))
      return ApiError.rateLimited(
        `Too many failed authentications from this address (${maxPerMinute} a minute); retry after ${retryAfter} seconds.`,
        retryAfter,
      )
    },
  }
}
export type AuthFailureLimiter = ReturnType<typeof createAuthFailureLimiter>
