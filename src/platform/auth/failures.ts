import { ApiError } from '../http/errors.js'

const MINUTE_MS = 60_000
/** Addresses tracked at most; beyond it the oldest windows are forgotten (a flood from many addresses stays bounded). */
const MAX_ADDRESSES = 100_000

/**
 * Counts per client address in fixed windows, in this process (like the per-key limit): `count` adds one and says
 * whether the address is now past `max`; `over` only looks.
 */
export function createAddressWindows(max: number, windowMs: number, now: () => number = Date.now) {
  const windows = new Map<string, { count: number; resetAt: number }>()

  function forgetExpired(at: number) {
    for (const [address, w] of windows) if (w.resetAt <= at) windows.delete(address)
    for (const address of windows.keys()) {
      if (windows.size <= MAX_ADDRESSES) break
      windows.delete(address)
    }
  }

  /** Seconds until the address's window ends, when it is past the limit; null while it is within it. */
  function retryAfter(w: { count: number; resetAt: number } | undefined, at: number): number | null {
    if (!w || w.resetAt <= at || w.count <= max) return null
    return Math.max(1, Math.ceil((w.resetAt - at) / 1000))
  }

  return {
    max,
    count(address: string): number | null {
      const at = now()
      let w = windows.get(address)
      if (!w || w.resetAt <= at) {
        if (windows.size >= MAX_ADDRESSES) forgetExpired(at)
        w = { count: 0, resetAt: at + windowMs }
        windows.delete(address)
        windows.set(address, w)
      }
      w.count++
      return retryAfter(w, at)
    },
    over(address: string): number | null {
      const at = now()
      return retryAfter(windows.get(address), at)
    },
  }
}

function tooManyFailures(maxPerMinute: number, retryAfter: number) {
  return ApiError.rateLimited(
    `Too many failed authentications from this address (${maxPerMinute} a minute); retry after ${retryAfter} seconds.`,
    retryAfter,
  )
}

/**
 * Failed authentications per client address, in one-minute windows, per process. Past `maxPerMinute`, a request
 * whose key fails gets 429 with Retry-After instead of 401, and a sign-in is refused before its password is even
 * checked (`refusal`): a right guess after many wrong ones gets the 429 too. A valid API key from the same address
 * is verified and served as usual, within its own limit.
 */
export function createAuthFailureLimiter(maxPerMinute: number, now: () => number = Date.now) {
  const windows = createAddressWindows(maxPerMinute, MINUTE_MS, now)
  return {
    /** Counts a failure of `address`; returns the error to answer with: `failure` itself, or a 429 past the limit. */
    failed(address: string, failure: unknown): unknown {
      // Only a refused key counts: a database that fails during verification stays the 500 it is.
      if (!(failure instanceof ApiError) || failure.status !== 401) return failure
      const retryAfter = windows.count(address)
      return retryAfter === null ? failure : tooManyFailures(maxPerMinute, retryAfter)
    },
    /** The 429 for an address already past the limit (nothing counted), or null. */
    refusal(address: string): ApiError | null {
      const retryAfter = windows.over(address)
      return retryAfter === null ? null : tooManyFailures(maxPerMinute, retryAfter)
    },
  }
}
export type AuthFailureLimiter = ReturnType<typeof createAuthFailureLimiter>

/**
 * Requests per client address, in one-minute windows, to the routes anyone may call without a key or a session
 * (sign-in, password resets, the invitation and reset pages): each one may cost a password hash or a database
 * write, so a client past `maxPerMinute` gets 429 with Retry-After before any work.
 */
export function createAnonymousLimiter(maxPerMinute: number, now: () => number = Date.now) {
  const windows = createAddressWindows(maxPerMinute, MINUTE_MS, now)
  return {
    /** Counts a request of `address`; throws the 429 past the limit. */
    check(address: string): void {
      const retryAfter = windows.count(address)
      if (retryAfter !== null)
        throw ApiError.rateLimited(
          `Too many requests without a key from this address (${maxPerMinute} a minute); retry after ${retryAfter} seconds.`,
          retryAfter,
        )
    },
  }
}
export type AnonymousLimiter = ReturnType<typeof createAnonymousLimiter>
