/**
 * The runs a schedule owes, queued once each however many workers call this at once: `due` names, per day, the
 * subjects (tenants, reports) whose run for that day is due. Those with a run for the day already are skipped;
 * `queue` returns false when the kind's unique (subject, day) index refused the run, another worker's having
 * come first. Returns how many runs this call queued.
 */
export async function queueScheduled(
  due: Map<string, string[]>,
  scheduledAlready: (subjects: string[], day: string) => Promise<Set<string>>,
  queue: (subject: string, day: string) => Promise<boolean>,
): Promise<number> {
  let queued = 0
  for (const [day, subjects] of due) {
    if (subjects.length === 0) continue
    const done = await scheduledAlready(subjects, day)
    for (const subject of subjects) {
      if (done.has(subject)) continue
      if (await queue(subject, day)) queued++
    }
  }
  return queued
}
