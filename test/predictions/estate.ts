import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { focusFiles } from '../../eval/estate.js'
import { DROP_DAY, plantedEstate, SPIKE_DAY } from '../support/focus-estate.js'

/** vm-web-2 (Team=platform) costs this much more a day from SHIFT_DAY on: about 1,900 a month. */
export const SHIFT_PER_DAY = 62.43
export const SHIFT_DAY = '2026-02-14'

/** The planted estate (2026-01-01..02-28) without its spike and outage, and with a lasting rise of vm-web-2. */
export function shiftedEstate() {
  const estate = plantedEstate({ spikeFactor: 1 })
  const [, vm2, db1, logs] = estate.resources
  const drop = estate.days.indexOf(DROP_DAY)
  db1!.costs[drop]! *= 10
  db1!.costs[drop + 1]! *= 10
  logs!.costs[estate.days.indexOf(SPIKE_DAY)]! /= 8
  estate.days.forEach((day, d) => {
    if (day >= SHIFT_DAY) vm2!.costs[d]! += SHIFT_PER_DAY
  })
  return estate
}

/** The estate as FOCUS files billed in `currency`. */
export function writeEstate(estate: ReturnType<typeof shiftedEstate>, currency: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'costwatch-predictions-'))
  return [...focusFiles(estate, currency)].map(([month, text]) => {
    const file = join(dir, `focus-${month}.csv`)
    writeFileSync(file, text)
    return file
  })
}

/** The observed change by its definition: the difference of daily rates over `days`, times the mean month. */
export const perMonth = (before: number, after: number, days: number) => ((after - before) / days) * 30.4375
