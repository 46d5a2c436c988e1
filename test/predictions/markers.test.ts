import { readFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commitIdempotencyKey } from '../../src/features/events/cli.js'
import type { EventRecord } from '../../src/features/events/schemas.js'
import type { TenantRecord } from '../../src/features/tenants/schemas.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { deploymentArgs, eventsCreate, ROOT } from '../support/cli.js'
import { testDialects } from '../support/dialects.js'

const API = '/api/public/v1'
const FIXTURE = join(ROOT, 'test/fixtures/infracost-breakdown.json')
const eventsOf = (tenantId: string) => `${API}/tenants/${tenantId}/events`
const prediction = (over: Record<string, unknown> = {}) => ({
  monthlyDelta: 120,
  currency: 'USD',
  source: 'Infracost',
  commit: 'a1b2c3d',
  pullRequestUrl: 'https://github.com/acme/infra/pull/7',
  ...over,
})
const deploy = (over: Record<string, unknown> = {}) => ({
  occurredAt: '2026-03-01T08:00:00Z',
  title: 'Deploy 4.2',
  category: 'Deployment',
  ...over,
})

for (const dialect of testDialects()) {
  describe(`${dialect}: a marker's predicted cost`, () => {
    const t = useTestApp({ dialect, env: { COSTWATCH_RATE_LIMIT: '100000' } })
    let org: OrgContext
    let tenant: TenantRecord
    let ci: { id: string; apiKey: string }
    let base: string
    let tmp: string

    beforeAll(async () => {
      org = await t.given.organisation('Estimates Ltd')
      tenant = await t.given.tenant(org)
      ci = await t.given.key(org, [{ tenancyId: tenant.id, role: 'Editor' }], { name: 'ci' })
      await t.app.listen({ port: 0, host: '127.0.0.1' })
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
      const { mkdtemp } = await import('node:fs/promises')
      const { tmpdir } = await import('node:os')
      tmp = await mkdtemp(join(tmpdir(), 'costwatch-infracost-'))
    })
    afterAll(async () => {
      const { rm } = await import('node:fs/promises')
      await rm(tmp, { recursive: true, force: true })
    })

    const create = (body: unknown, headers = {}) => t.request('POST', eventsOf(tenant.id), ci.apiKey, body, headers)
    const get = async (id: string) =>
      (await t.request('GET', `${eventsOf(tenant.id)}/${id}`, org.ownerKey)).json() as EventRecord

    it('is stored on create and returned on the record, the list and the chart', async () => {
      const res = await create(deploy({ prediction: prediction({ source: '  Infracost ', monthlyDelta: 120.456 }) }))
      expect(res.statusCode, res.body).toBe(201)
      const event = res.json() as EventRecord
      expect(event.prediction).toEqual(prediction({ monthlyDelta: 120.46 }))
      expect(await get(event.id)).toEqual(event)
      const list = (await t.request('GET', `${eventsOf(tenant.id)}?pageSize=100`, org.ownerKey)).json()
      expect(list.items.find((e: EventRecord) => e.id === event.id).prediction).toEqual(event.prediction)
      // Optional fields may be left out; a marker without a prediction has none.
      const bare = (
        await create(deploy({ prediction: { monthlyDelta: -40, currency: 'EUR', source: 'manual' } }))
      ).json()
      expect(bare.prediction).toEqual({
        monthlyDelta: -40,
        currency: 'EUR',
        source: 'manual',
        commit: null,
        pullRequestUrl: null,
      })
      const none = (await create(deploy())).json()
      expect(none).not.toHaveProperty('prediction')
    })

    it('bad predictions are 400s naming the field, and create nothing', async () => {
      const before = (await t.request('GET', `${eventsOf(tenant.id)}?pageSize=1`, org.ownerKey)).json().totalCount
      const cases: [Record<string, unknown>, string, string][] = [
        [prediction({ currency: 'usd' }), 'prediction.currency', 'must match pattern'],
        [prediction({ currency: 'DOLLAR' }), 'prediction.currency', 'must match pattern'],
        [prediction({ monthlyDelta: '120' }), 'prediction.monthlyDelta', 'must be number'],
        [prediction({ monthlyDelta: 1e13 }), 'prediction.monthlyDelta', 'must be <='],
        [prediction({ source: '   ' }), 'prediction.source', 'must not be empty'],
        [prediction({ pullRequestUrl: 'ftp://example.com/pr/1' }), 'prediction.pullRequestUrl', 'http:// or https://'],
        [prediction({ pullRequestUrl: 'javascript:alert(1)' }), 'prediction.pullRequestUrl', 'http:// or https://'],
        [prediction({ commit: 'a b' }), 'prediction.commit', 'visible ASCII'],
        [prediction({ extra: 1 }), 'prediction.extra', 'is not a known field'],
        [{ currency: 'USD', source: 'x' }, 'prediction.monthlyDelta', 'is required'],
      ]
      for (const [p, field, message] of cases) {
        const res = await create(deploy({ prediction: p }))
        expect(res.statusCode, JSON.stringify(p)).toBe(400)
        const problem = res.json()
        expect(Object.keys(problem.errors), JSON.stringify(p)).toEqual([field])
        expect(problem.errors[field].join(' ')).toContain(message)
      }
      const after = (await t.request('GET', `${eventsOf(tenant.id)}?pageSize=1`, org.ownerKey)).json().totalCount
      expect(after).toBe(before)
    })

    it('is set, replaced and cleared by PATCH; a bad one changes nothing', async () => {
      const event = (await create(deploy({ title: 'Patch me' }))).json() as EventRecord
      const url = `${eventsOf(tenant.id)}/${event.id}`
      const set = await t.request('PATCH', url, ci.apiKey, { prediction: prediction({ monthlyDelta: 55 }) })
      expect(set.statusCode, set.body).toBe(200)
      expect(set.json().prediction).toEqual(prediction({ monthlyDelta: 55 }))
      // Other fields leave it as it is.
      const titled = await t.request('PATCH', url, ci.apiKey, { title: 'Patched' })
      expect(titled.json().prediction).toEqual(prediction({ monthlyDelta: 55 }))
      const bad = await t.request('PATCH', url, ci.apiKey, {
        title: 'Never',
        prediction: prediction({ pullRequestUrl: 'nope' }),
      })
      expect(bad.statusCode).toBe(400)
      expect(Object.keys(bad.json().errors)).toEqual(['prediction.pullRequestUrl'])
      expect((await get(event.id)).title).toBe('Patched')
      const both = await t.request('PATCH', url, ci.apiKey, { prediction: prediction(), clearPrediction: true })
      expect(both.statusCode).toBe(400)
      expect(Object.keys(both.json().errors)).toEqual(['clearPrediction'])
      const cleared = await t.request('PATCH', url, ci.apiKey, { clearPrediction: true })
      expect(cleared.statusCode, cleared.body).toBe(200)
      expect(cleared.json()).not.toHaveProperty('prediction')
      expect(await get(event.id)).not.toHaveProperty('prediction')
    })

    it('an Idempotency-Key compares the prediction too', async () => {
      const headers = { 'idempotency-key': 'predicted-1' }
      const first = await create(deploy({ title: 'Keyed', prediction: prediction() }), headers)
      expect(first.statusCode, first.body).toBe(201)
      const replay = await create(deploy({ title: 'Keyed', prediction: prediction() }), headers)
      expect(replay.statusCode).toBe(201)
      expect(replay.json().id).toBe(first.json().id)
      const changed = await create(deploy({ title: 'Keyed', prediction: prediction({ monthlyDelta: 999 }) }), headers)
      expect(changed.statusCode).toBe(422)
    })

    const env = () => ({ COSTWATCH_URL: base, COSTWATCH_API_KEY: ci.apiKey })
    const args = (title: string, more: string[] = []) => deploymentArgs(tenant.id, title, more)

    it("--infracost stores the documentation's example report as the prediction", async () => {
      const run = await eventsCreate(args('Deploy with estimate', ['--infracost', FIXTURE, '--json']), env())
      expect(run.code, run.stderr).toBe(0)
      const printed = JSON.parse(run.stdout) as EventRecord
      expect(printed.prediction).toEqual({
        monthlyDelta: 742.64,
        currency: 'USD',
        source: 'Infracost',
        commit: '1af413ad15ad6cbdfca667361231231231231231',
        pullRequestUrl: 'https://github.com/infracost/infracost/pulls/1996',
      })
      expect(await get(printed.id)).toEqual(printed)
    })

    it('--infracost reads vcsCommitSha, and a saving; --commit wins over the report', async () => {
      const report = JSON.parse(await readFile(FIXTURE, 'utf8'))
      report.diffTotalMonthlyCost = '-12.5'
      report.currency = 'EUR'
      report.metadata = {
        vcsCommitSha: 'feedbeef',
        vcsPullRequestUrl: 'https://gitlab.example.com/a/b/-/merge_requests/3',
      }
      const file = join(tmp, 'saving.json')
      const { writeFile } = await import('node:fs/promises')
      await writeFile(file, JSON.stringify(report))
      const run = await eventsCreate(args('Deploy saving', ['--infracost', file, '--json']), env())
      expect(run.code, run.stderr).toBe(0)
      expect(JSON.parse(run.stdout).prediction).toEqual({
        monthlyDelta: -12.5,
        currency: 'EUR',
        source: 'Infracost',
        commit: 'feedbeef',
        pullRequestUrl: 'https://gitlab.example.com/a/b/-/merge_requests/3',
      })
      const overridden = await eventsCreate(
        args('Deploy override', ['--infracost', file, '--commit', 'c0ffee', '--json']),
        env(),
      )
      expect(overridden.code, overridden.stderr).toBe(0)
      expect(JSON.parse(overridden.stdout).prediction.commit).toBe('c0ffee')
    })

    it('a missing, non-JSON or wrong-version report: a clear error, nothing created; --best-effort exits 0', async () => {
      const { writeFile } = await import('node:fs/promises')
      const notJson = join(tmp, 'not.json')
      await writeFile(notJson, 'Project: infracost/examples\n  Name  Monthly Qty')
      const v3 = join(tmp, 'v3.json')
      const report = JSON.parse(await readFile(FIXTURE, 'utf8'))
      await writeFile(v3, JSON.stringify({ ...report, version: '0.3' }))
      const noDiff = join(tmp, 'nodiff.json')
      await writeFile(noDiff, JSON.stringify({ ...report, diffTotalMonthlyCost: null, currency: 'usd' }))
      const cases: [string, string[]][] = [
        [join(tmp, 'absent.json'), [`--infracost: cannot read ${join(tmp, 'absent.json')}: no such file`]],
        [notJson, [`--infracost: ${notJson} is not JSON`]],
        [v3, [`--infracost: ${v3}: "version" is "0.3"; this command reads Infracost JSON format 0.2`]],
        [
          noDiff,
          [
            `--infracost: ${noDiff}: the report has no "diffTotalMonthlyCost"`,
            `--infracost: ${noDiff}: "currency" must be an ISO 4217 code such as "USD" (got "usd")`,
          ],
        ],
      ]
      for (const [file, messages] of cases) {
        const run = await eventsCreate(args('Deploy bad report', ['--infracost', file]), env())
        expect(run.code, run.stderr).toBe(1)
        expect(run.stderr).toContain('error: the Infracost report cannot be used')
        for (const m of messages) expect(run.stderr).toContain(m)
      }
      const soft = await eventsCreate(args('Deploy bad report', ['--infracost', v3, '--best-effort']), env())
      expect(soft.code).toBe(0)
      expect(soft.stderr).toContain('warning: no event marker was created (--best-effort: exit 0)')
      const list = (await t.request('GET', `${eventsOf(tenant.id)}?pageSize=200`, org.ownerKey)).json()
      expect(list.items.filter((e: EventRecord) => e.title === 'Deploy bad report')).toEqual([])
    })

    it('--commit makes one marker per commit and title: a re-run creates none', async () => {
      const key = commitIdempotencyKey(tenant.id, 'abc123', 'Deploy once')
      expect(key).toMatch(/^costwatch-commit-[0-9a-f]{40}$/)
      const first = await eventsCreate(args('Deploy once', ['--commit', 'abc123']), env())
      expect(first.code, first.stderr).toBe(0)
      expect(first.stdout).toMatch(/^Created event marker /)
      // A re-run later: another occurredAt (now), so another body, same key.
      const again = await eventsCreate(
        args('Deploy once', ['--commit', 'abc123', '--occurred-at', '2026-03-02T00:00:00Z']),
        env(),
      )
      expect(again.code, again.stderr).toBe(0)
      expect(again.stdout).toBe(
        'An event marker for commit abc123 already exists (same tenant and title); nothing created.\n',
      )
      const json = await eventsCreate(args('Deploy once', ['--commit', 'abc123', '--json']), env())
      expect(json.code, json.stderr).toBe(0)
      expect(JSON.parse(json.stdout)).toEqual({ created: false, reason: 'already-exists', commit: 'abc123' })
      const other = await eventsCreate(args('Deploy once', ['--commit', 'def456']), env())
      expect(other.code, other.stderr).toBe(0)
      const list = (await t.request('GET', `${eventsOf(tenant.id)}?pageSize=200`, org.ownerKey)).json()
      expect(list.items.filter((e: EventRecord) => e.title === 'Deploy once')).toHaveLength(2)
    })
  })
}
