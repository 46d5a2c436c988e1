import { describe, expect, it } from 'vitest'
import { retryAfterMs, retryDelayMs } from '../../src/features/notifications/run.js'

describe('Retry-After and the retry schedule', () => {
  const now = new Date('2026-03-01T09:00:00.000Z')

  it('reads seconds and HTTP dates, at most 24 hours; anything else is ignored', () => {
    expect(retryAfterMs('120', now)).toBe(120_000)
    expect(retryAfterMs(' 0 ', now)).toBe(0)
    expect(retryAfterMs('Sun, 01 Mar 2026 09:10:00 GMT', now)).toBe(600_000)
    expect(retryAfterMs('Sun, 01 Mar 2026 08:00:00 GMT', now)).toBe(0)
    expect(retryAfterMs('999999', now)).toBe(24 * 3_600_000)
    expect(retryAfterMs('soon', now)).toBeNull()
    expect(retryAfterMs(undefined, now)).toBeNull()
  })

  it('jitters each delay of the schedule by at most 10%', () => {
    expect(retryDelayMs(1, () => 0)).toBe(4_500)
    expect(retryDelayMs(1, () => 1)).toBe(5_500)
    expect(retryDelayMs(2, () => 0.5)).toBe(300_000)
    expect(retryDelayMs(9, () => 0.5)).toBe(24 * 3_600_000)
  })
})
