/**
 * Preloaded (`node --import`) into a command the benchmark runs: on exit, writes the process's peak resident set
 * (bytes) to the file named by BENCH_MAX_RSS_FILE, and its CPU seconds beside it (`.cpu`), so the parent can report
 * the child's peak RSS and CPU time. Plain
 * JavaScript, so that it loads into the built command line without tsx.
 */
import { writeFileSync } from 'node:fs'

const target = process.env.BENCH_MAX_RSS_FILE
if (target) {
  process.on('exit', () => {
    // maxRSS is in kilobytes.
    writeFileSync(target, String(process.resourceUsage().maxRSS * 1024))
    // Its CPU time (user + system, every thread): on a shared machine a steadier figure than the wall clock.
    const cpu = process.cpuUsage()
    writeFileSync(`${target}.cpu`, String((cpu.user + cpu.system) / 1e6))
  })
}
