import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { parse } from 'yaml'
import type { EventRecord } from '../../src/features/events/schemas.js'
import type { TenantRecord } from '../../src/features/tenants/schemas.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { ROOT, runProcess } from '../support/cli.js'
import { testDialects } from '../support/dialects.js'

interface ActionYml {
  inputs: Record<string, { required?: boolean; default?: string }>
  runs: { using: string; steps: { shell: string; env: Record<string, string>; run: string }[] }
}

const action = parse(await readFile(join(ROOT, 'action.yml'), 'utf8')) as ActionYml
const github = {
  repository: 'acme/payments',
  sha: '1af413ad15ad6cbdfca667361231231231231231',
  server_url: 'https://github.com',
  run_id: '2846680866',
}

/** What the runner does with `${{ inputs.x }}` and `${{ github.x }}`: the given input, else its default. */
function evaluate(text: string, inputs: Record<string, string>): string {
  return text.replace(/\$\{\{\s*(inputs|github)\.([\w-]+)\s*\}\}/g, (_, scope: string, name: string) => {
    if (scope === 'github') return github[name as keyof typeof github] ?? ''
    const value = inputs[name] ?? action.inputs[name]?.default ?? ''
    return evaluate(value, inputs)
  })
}

/**
 * Runs the action's step as a runner would: bash with the step's env, and an `npx` on PATH that records its
 * arguments and runs the real command line (the project's compiled one, instead of fetching the package).
 */
async function runAction(inputs: Record<string, string>, shimDir: string) {
  const [step] = action.runs.steps
  const env: Record<string, string> = { PATH: `${shimDir}:${process.env.PATH}`, HOME: process.env.HOME ?? '/tmp' }
  for (const [name, value] of Object.entries(step!.env)) env[name] = evaluate(value, inputs)
  return runProcess('bash', ['-e', '-c', step!.run], env)
}

describe('action.yml', () => {
  it('is a composite action running the command line through npx, with the documented inputs', () => {
    expect(action.runs.using).toBe('composite')
    expect(action.runs.steps).toHaveLength(1)
    expect(action.runs.steps[0]!.shell).toBe('bash')
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash's array expansion, not a template
    expect(action.runs.steps[0]!.run).toContain('npx --yes "$INPUT_CLI_PACKAGE" "${args[@]}"')
    for (const name of ['url', 'api-key', 'tenant']) expect(action.inputs[name]?.required).toBe(true)
    for (const name of ['title', 'category', 'tags', 'infracost-file', 'best-effort'])
      expect(action.inputs[name]?.required).toBe(false)
    expect(action.inputs['best-effort']!.default).toBe('true')
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the runner's expression, not a template
    expect(action.inputs.commit!.default).toBe('${{ github.sha }}')
    // The key reaches the command line through the environment, never on its command line.
    expect(action.runs.steps[0]!.run).not.toContain('api-key')
  })
})

for (const dialect of testDialects()) {
  describe(`${dialect}: the action against a server`, () => {
    const t = useTestApp({ dialect, env: { COSTWATCH_RATE_LIMIT: '100000' } })
    let org: OrgContext
    let tenant: TenantRecord
    let ci: { apiKey: string }
    let base: string
    let shimDir: string
    let calls: string

    beforeAll(async () => {
      org = await t.given.organisation('Actions Ltd')
      tenant = await t.given.tenant(org)
      ci = await t.given.key(org, [{ tenancyId: tenant.id, role: 'Editor' }], { name: 'github' })
      await t.app.listen({ port: 0, host: '127.0.0.1' })
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
      shimDir = await mkdtemp(join(tmpdir(), 'costwatch-npx-'))
      calls = join(shimDir, 'calls')
      const cli = join(inject('cliDir'), 'src/main.js')
      await writeFile(
        join(shimDir, 'npx'),
        `#!/bin/bash\nprintf '%s\\n' "$*" >> ${JSON.stringify(calls)}\n[ "$1" = "--yes" ] && shift\nshift\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(cli)} "$@"\n`,
      )
      await chmod(join(shimDir, 'npx'), 0o755)
    })
    afterAll(async () => {
      await rm(shimDir, { recursive: true, force: true })
    })

    const inputs = (more: Record<string, string> = {}) => ({
      url: base,
      'api-key': ci.apiKey,
      tenant: tenant.id,
      ...more,
    })
    const markers = async () =>
      (
        (await t.request('GET', `/api/public/v1/tenants/${tenant.id}/events?pageSize=200`, org.ownerKey)).json() as {
          items: EventRecord[]
        }
      ).items

    it('creates the marker with its Infracost prediction, once per commit', async () => {
      const run = await runAction(
        inputs({ 'infracost-file': 'test/fixtures/infracost-breakdown.json', tags: 'team=payments' }),
        shimDir,
      )
      expect(run.code, run.stderr).toBe(0)
      expect(run.stdout).toMatch(/^Created event marker /)
      const [call] = (await readFile(calls, 'utf8')).trim().split('\n')
      expect(call).toBe(
        `--yes costwatch events create --tenant ${tenant.id} --title Deploy acme/payments@${github.sha} ` +
          `--category Deployment --max-attempts 5 --commit ${github.sha} --tag team=payments ` +
          `--description https://github.com/acme/payments/actions/runs/2846680866 ` +
          '--infracost test/fixtures/infracost-breakdown.json',
      )
      const [marker, ...others] = await markers()
      expect(others).toEqual([])
      expect(marker).toMatchObject({
        title: `Deploy acme/payments@${github.sha}`,
        category: 'Deployment',
        tagKey: 'team',
        tagValue: 'payments',
        description: 'https://github.com/acme/payments/actions/runs/2846680866',
        prediction: { monthlyDelta: 742.64, currency: 'USD', source: 'Infracost' },
      })
      // The job re-run: nothing more.
      const again = await runAction(inputs({ 'infracost-file': 'test/fixtures/infracost-breakdown.json' }), shimDir)
      expect(again.code, again.stderr).toBe(0)
      expect(again.stdout).toContain('already exists')
      expect(await markers()).toHaveLength(1)
    })

    it('best-effort: a failure warns and passes; without it, the job fails', async () => {
      const closed = http.createServer()
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
      const port = (closed.address() as AddressInfo).port
      await new Promise<void>((resolve) => closed.close(() => resolve()))
      const nowhere = { url: `http://127.0.0.1:${port}`, 'max-attempts': '1', title: 'Nowhere' }
      const soft = await runAction(inputs(nowhere), shimDir)
      expect(soft.code).toBe(0)
      expect(soft.stderr).toContain('ECONNREFUSED')
      expect(soft.stdout).toContain('::warning title=Costwatch::No event marker was created (exit 1)')
      const hard = await runAction(inputs({ ...nowhere, 'best-effort': 'false' }), shimDir)
      expect(hard.code).toBe(1)
      expect(hard.stdout).not.toContain('::warning')
      // A bad report is a failure like any other.
      const bad = await runAction(inputs({ title: 'Bad report', 'infracost-file': 'no-such.json' }), shimDir)
      expect(bad.code).toBe(0)
      expect(bad.stderr).toContain('--infracost: cannot read no-such.json: no such file')
      expect((await markers()).filter((m) => m.title === 'Bad report')).toEqual([])
    })
  })
}
