import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

let collect: (() => void) | undefined

/**
 * A full garbage collection of this thread's heap, now: for work done in long steps whose objects all become
 * garbage when a step ends (a pull's billing periods). V8 lets its old space grow to several times what was live at
 * its last full collection before it collects again, and objects that live through a step (its cost keys, its
 * inventory) are all in old space: a pull of 10 million rows in 500,000-row steps held up to 240 MB of heap for
 * 50-70 MB of live objects, and peaked at 589 MB RSS; collecting after each step (tens of milliseconds against
 * steps of 10 s and more) kept the heap under 105 MB and the peak at 412-423 MB; collecting before each step's merge
 * as well (a merge's synchronous SQLite calls let nothing be collected for seconds), 383 MB.
 *
 * V8 gives the collector to scripts only with `--expose-gc`, read when a context is created: the flag is set at
 * the first call and the function taken from a new context (the process's own was created without it).
 */
export function collectGarbage(): void {
  if (collect === undefined) {
    setFlagsFromString('--expose-gc')
    collect = runInNewContext('gc') as () => void
  }
  collect()
}
