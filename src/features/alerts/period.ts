import { addDays } from '../../platform/time.js'
import type { Weekdays } from './constants.js'

/**
 * Digest periods in a rule's time zone: a Daily digest is due each day at digestHour, a Weekly one on digestWeekday
 * at digestHour, local time. The period ends when its digest is due and lasts a day (a week) of local time, so a
 * change of daylight saving time makes it 23 or 25 hours. Its key is the local day it is due on.
 */

/** Whether the IANA time zone is known to this runtime. */
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone })
    return true
  } catch {
    return false
  }
}

function parts(at: Date, timeZone: string) {
  const p = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    weekday: 'long',
  }).formatToParts(at)
  const get = (type: string) => p.find((x) => x.type === type)!.value
  return {
    day: `${get('year')}-${get('month')}-${get('day')}`,
    hour: Number(get('hour')),
    minute: Number(get('minute')),
    second: Number(get('second')),
    weekday: get('weekday'),
  }
}

/** How far the zone's clock is ahead of UTC at `at`, in milliseconds. */
function offsetMs(at: Date, timeZone: string): number {
  const p = parts(at, timeZone)
  const local = Date.parse(
    `${p.day}T${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}:${String(p.second).padStart(2, '0')}Z`,
  )
  return local - Math.floor(at.getTime() / 1000) * 1000
}

/** The instant the zone's clock shows `hour`:00 on the local `day` (the next hour when that one is skipped). */
export function zonedInstant(day: string, hour: number, timeZone: string): Date {
  const wall = Date.parse(`${day}T${String(hour).padStart(2, '0')}:00:00Z`)
  let t = wall - offsetMs(new Date(wall), timeZone)
  t = wall - offsetMs(new Date(t), timeZone)
  return new Date(t)
}

export interface DigestSchedule {
  frequency: 'Daily' | 'Weekly'
  digestHour: number
  digestWeekday: (typeof Weekdays)[number]
  timeZone: string
}

export interface DigestPeriod {
  /** The local day the digest is due on. */
  key: string
  from: Date
  /** When the digest is due: the period's end, excluded. */
  to: Date
}

/** The period of the digest due on the local day `key`. */
export function periodOf(schedule: DigestSchedule, key: string): DigestPeriod {
  const length = schedule.frequency === 'Daily' ? 1 : 7
  return {
    key,
    from: zonedInstant(addDays(key, -length), schedule.digestHour, schedule.timeZone),
    to: zonedInstant(key, schedule.digestHour, schedule.timeZone),
  }
}

/**
 * The latest period whose digest is due at `now`, or null when none has come since `since` (the rule's creation):
 * after a pause of the workers only the latest missed period is sent, not every one.
 */
export function latestDuePeriod(schedule: DigestSchedule, now: Date, since: Date): DigestPeriod | null {
  const today = parts(now, schedule.timeZone).day
  for (let back = 0; back <= 8; back++) {
    const day = addDays(today, -back)
    if (schedule.frequency === 'Weekly') {
      const weekday = parts(zonedInstant(day, 12, schedule.timeZone), schedule.timeZone).weekday
      if (weekday !== schedule.digestWeekday) continue
    }
    const period = periodOf(schedule, day)
    if (period.to.getTime() > now.getTime()) continue
    return period.to.getTime() >= since.getTime() ? period : null
  }
  return null
}
