import { spawn } from 'node:child_process'

export type Fetched =
  | { statusCode: number; headers: Record<string, string>; body: string }
  | { statusCode: 0; error: string }

/** Sends the request `times` times in a row with `fetch`, each read to its end; every answer or failure, in order. */
const CLIENT = `
let input = ''
for await (const chunk of process.stdin) input += chunk
const { url, method, headers, body, times } = JSON.parse(input)
const results = []
for (let i = 0; i < times; i++) {
  try {
    const res = await fetch(url, { method, headers, body })
    const text = await res.text()
    results.push({ statusCode: res.status, headers: Object.fromEntries(res.headers), body: text })
  } catch (err) {
    results.push({ statusCode: 0, error: String(err.cause?.code ?? err.cause?.message ?? err) })
  }
}
process.stdout.write(JSON.stringify(results))
`

/**
 * `fetch` (Node's undici) from a process of its own, as a real client is: in the test's own process, client and
 * server share one event loop, which hides races between an answer and a connection being closed.
 */
export function fetchRepeatedly(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
  times: number,
): Promise<Fetched[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', CLIENT], { stdio: ['pipe', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (chunk) => {
      out += chunk
    })
    child.on('error', reject)
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`the fetch client exited with ${code}`))
      resolve(JSON.parse(out))
    })
    child.stdin.end(JSON.stringify({ url, ...init, times }))
  })
}
