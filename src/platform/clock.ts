import { v7 as uuidv7 } from 'uuid'

/** Time comes from here, never from `new Date()` in feature code, so tests can fix it. */
export interface Clock {
  now(): Date
}

/** Identifiers we mint: UUID v7 in production (they sort by creation time). */
export interface Ids {
  uuid(): string
}

export const systemClock: Clock = { now: () => new Date() }
export const uuidV7Ids: Ids = { uuid: () => uuidv7() }

/** A clock that stays where it is told, for tests and the demo seed. */
export function fixedClock(start: string | Date): Clock & { set(at: string | Date): void; advance(ms: number): void } {
  let current = new Date(start)
  return {
    now: () => new Date(current),
    set: (at) => {
      current = new Date(at)
    },
    advance: (ms) => {
      current = new Date(current.getTime() + ms)
    },
  }
}
