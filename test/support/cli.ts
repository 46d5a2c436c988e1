import { type ChildProcess, spawn } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { inject } from 'vitest'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/**
 * Node's arguments that start the command line: the run's compiled JavaScript (test/global-setup.ts), or the
 * TypeScript sources through tsx when modules written in TypeScript are to load first (`imports`).
 */
function commandLine(imports: string[] = []): string[] {
  if (imports.length === 0) return [join(inject('cliDir'), 'src/main.js')]
  return ['--import', 'tsx', ...imports.flatMap((module) => ['--import', module]), 'src/main.ts']
}

export interface CliResult {
  code: number | null
  stdout: string
  stderr: string
}

/**
 * Runs the real command line, with the given environment on top of ours; with
 * `isolated`, none of our COSTWATCH_ settings leak in (as on a CI runner that has only what it is given).
 * `imports` are modules node loads before the command line (`--import`), after tsx.
 */
export function runCli(
  args: string[],
  env: Record<string, string>,
  options: { input?: string; isolated?: boolean; imports?: string[] } = {},
): Promise<CliResult> {
  const inherited = options.isolated
    ? Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('COSTWATCH_')))
    : { ...process.env, COSTWATCH_LOG_LEVEL: 'warn' }
  return runNode([...commandLine(options.imports), ...args], { ...inherited, ...env }, options.input)
}

/** Runs node with `argv` in the project's folder and exactly `env`, `input` on its standard input: its exit and output. */
export function runNode(argv: string[], env: NodeJS.ProcessEnv, input = ''): Promise<CliResult> {
  return runProcess(process.execPath, argv, env, input)
}

/** Runs `command` with `argv` in the project's folder and exactly `env`, `input` on its standard input. */
export function runProcess(command: string, argv: string[], env: NodeJS.ProcessEnv, input = ''): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => {
      stdout += d
    })
    child.stderr.on('data', (d) => {
      stderr += d
    })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
    child.stdin.end(input)
  })
}

/** Starts `costwatch serve` on a free port and resolves with its base URL once it listens. */
export function startServer(
  args: string[],
  env: Record<string, string>,
): Promise<{ url: string; child: ChildProcess; output: () => string; stop(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...commandLine(), 'serve', ...args], {
      cwd: ROOT,
      env: { ...process.env, COSTWATCH_LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`serve did not start in time:\n${output}`))
    }, 90_000)
    const onData = (d: Buffer) => {
      output += d
      const match = output.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/)
      if (match) {
        clearTimeout(timer)
        resolve({
          url: match[1]!,
          child,
          output: () => output,
          stop: () =>
            new Promise((done) => {
              if (child.exitCode !== null) return done()
              child.once('exit', () => done())
              child.kill('SIGTERM')
            }),
        })
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.on('exit', (code) => {
      clearTimeout(timer)
      if (!output.includes('listening on')) reject(new Error(`serve exited with ${code}:\n${output}`))
    })
  })
}

/** Starts `costwatch worker` in a child process; resolves once it says it waits for runs, with what it printed so far and since. */
export function startWorker(env: Record<string, string>): Promise<ChildProcess & { output(): string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...commandLine(), 'worker'], {
      cwd: ROOT,
      // Metrics on a free port unless the test names one: workers of tests running side by side never collide.
      env: { ...process.env, COSTWATCH_LOG_LEVEL: 'warn', WORKER_PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    const onData = (d: Buffer) => {
      output += d
      if (output.includes('waiting for runs')) resolve(Object.assign(child, { output: () => output }))
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.on('exit', (code) => {
      if (!output.includes('waiting for runs')) reject(new Error(`worker exited with ${code}:\n${output}`))
    })
  })
}

/** `costwatch events create ...` as a pipeline runs it: a process of its own, configured by the environment. */
export function eventsCreate(args: string[], env: Record<string, string>) {
  return runCli(['events', 'create', ...args], env, { isolated: true })
}

/** The arguments of a deployment marker on a tenant, with more after them. */
export function deploymentArgs(tenantId: string, title: string, more: string[] = []): string[] {
  return ['--tenant', tenantId, '--title', title, '--category', 'Deployment', ...more]
}
