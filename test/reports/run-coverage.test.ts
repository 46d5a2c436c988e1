import { Migrator, sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ReportRecord, ReportRunRecord } from '../../src/features/reports/schemas.js'
import type { TenantRecord } from '../../src/features/tenants/schemas.js'
import { migrations } from '../../src/platform/db/migrations/index.js'
import { type OrgContext, useEmptyDatabase, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import { activeMember, signInAs } from '../support/members.js'
import { reportTestEnv, seedCosts } from './seed.js'

const API = '/api/public/v1'
const APP = '/api/app'
const PUBLIC_URL = 'https://costs.example.test'
const UNKNOWN_RUN = '00000000-0000-4000-8000-00000000abcd'

/**
 * A run is read against the tenancies it covered when it was queued: a report over T1 and T2, run, then narrowed
 * to T1, does not show that run's T2 rows to a Viewer of T1 (public API, the web interface's API, its run list).
 */
for (const dialect of testDialects()) {
  describe(`${dialect}: a report run is read against the tenancies it covered`, () => {
    const t = useTestApp({
      dialect,
      env: reportTestEnv({ COSTWATCH_PUBLIC_URL: PUBLIC_URL }),
    })
    let org: OrgContext
    let t1: TenantRecord
    let t2: TenantRecord
    let viewer1: string
    let viewer1and2: string
    /** A signed-in member of the web interface with Viewer on T1 alone. */
    let browser: { cookie: string }

    const create = async (tenancyIds: string[] | null): Promise<ReportRecord> => {
      const res = await t.request('POST', `${API}/reports`, org.ownerKey, {
        name: `By tag ${Math.random()}`,
        kind: 'CostByDimension',
        parameters: { dimension: 'Tag', tagKey: 'env', period: 'Last30Days' },
        tenancyIds,
      })
      expect(res.statusCode, res.body).toBe(201)
      return res.json()
    }
    const queue = async (reportId: string): Promise<ReportRunRecord> => {
      const res = await t.request('POST', `${API}/reports/${reportId}/runs`, org.ownerKey)
      expect(res.statusCode, res.body).toBe(202)
      return res.json()
    }
    const work = async () => {
      const worker = t.worker()
      while (await worker.runOnce()) {}
    }
    const narrow = async (reportId: string, tenancyIds: string[] | null) => {
      const res = await t.request('PATCH', `${API}/reports/${reportId}`, org.ownerKey, { tenancyIds })
      expect(res.statusCode, res.body).toBe(200)
    }
    const get = (url: string, key: string) => t.request('GET', url, key)
    const asBrowser = (url: string) =>
      t.app.inject({ method: 'GET', url, cookies: { '__Host-costwatch_session': browser.cookie } })
    const runUrls = (reportId: string, runId: string) =>
      ['', '/csv', '/pdf', '/xlsx'].map((tail) => `/reports/${reportId}/runs/${runId}${tail}`)
    /** A 404 exactly like the one of an unknown run id of the same report (but for the id it names). */
    async function expectUnknownRun(
      answer: (path: string) => Promise<{ statusCode: number; body: string; headers: Record<string, unknown> }>,
      reportId: string,
      runId: string,
    ) {
      for (const [i, path] of runUrls(reportId, runId).entries()) {
        const res = await answer(path)
        expect(res.statusCode, `${path}: ${res.body}`).toBe(404)
        expect(res.headers['content-disposition']).toBeUndefined()
        expect(res.headers.location).toBeUndefined()
        const unknown = await answer(runUrls(reportId, UNKNOWN_RUN)[i]!)
        expect(unknown.statusCode).toBe(404)
        const { traceId: _a, ...problem } = JSON.parse(res.body)
        const { traceId: _b, ...unknownProblem } = JSON.parse(unknown.body.replaceAll(UNKNOWN_RUN, runId))
        expect(problem).toEqual(unknownProblem)
      }
    }

    beforeAll(async () => {
      org = await t.given.organisation('Coverage Ltd')
      t1 = await t.given.tenant(org, { name: 'Production' })
      t2 = await t.given.tenant(org, { name: 'Europe' })
      await seedCosts(t.db, t1.id, [{ name: 'vm-web', daily: 10, tags: { env: 'prod' } }], {
        last: '2026-03-01',
        days: 10,
      })
      await seedCosts(t.db, t2.id, [{ name: 'vm-eu', daily: 7, currency: 'EUR', tags: { env: 'secret-eu' } }], {
        last: '2026-03-01',
        days: 10,
      })
      viewer1 = (await t.given.key(org, [{ tenancyId: t1.id, role: 'Viewer' }])).apiKey
      viewer1and2 = (
        await t.given.key(org, [
          { tenancyId: t1.id, role: 'Viewer' },
          { tenancyId: t2.id, role: 'Viewer' },
        ])
      ).apiKey

      // A member of the web interface, Viewer of T1.
      const memberId = (await activeMember(t, org, 'viewer@coverage.test')).id
      const granted = await t.request('PUT', `${API}/tenancies/${t1.id}/users/${memberId}`, org.ownerKey, {
        role: 'Viewer',
      })
      expect(granted.statusCode, granted.body).toBe(200)
      browser = { cookie: (await signInAs(t, 'viewer@coverage.test')).cookie.value }
    })

    it('hides a run over T1 and T2 from a Viewer of T1 once the report covers T1 alone; a later run is readable', async () => {
      const report = await create([t1.id, t2.id])
      const old = await queue(report.id)
      await work()
      // Before the change the Viewer of T1 sees neither the report nor its run.
      expect((await get(`${API}/reports/${report.id}/runs/${old.id}`, viewer1)).statusCode).toBe(404)
      await narrow(report.id, [t1.id])

      // The report is visible to the Viewer of T1 now, but not the run, which holds T2's rows.
      expect((await get(`${API}/reports/${report.id}`, viewer1)).json().lastRun).toBeNull()
      await expectUnknownRun((path) => get(`${API}${path}`, viewer1), report.id, old.id)
      await expectUnknownRun((path) => asBrowser(`${APP}${path}`), report.id, old.id)
      expect((await get(`${API}/reports/${report.id}/runs`, viewer1)).json()).toMatchObject({
        items: [],
        totalCount: 0,
      })
      expect((await asBrowser(`${APP}/reports/${report.id}/runs`)).json().totalCount).toBe(0)

      // Whoever sees T1 and T2 still reads it all, T2's rows included; the owner too.
      const full = await get(`${API}/reports/${report.id}/runs/${old.id}`, viewer1and2)
      expect(full.statusCode, full.body).toBe(200)
      expect(full.json().rows).toContainEqual(['secret-eu', 70, 'EUR'])
      expect((await get(`${API}/reports/${report.id}/runs/${old.id}/csv`, viewer1and2)).statusCode).toBe(302)
      expect((await get(`${API}/reports/${report.id}/runs/${old.id}/xlsx`, org.ownerKey)).statusCode).toBe(200)

      // A run made after the change covers T1 alone, and the Viewer of T1 reads it, its files and its CSV link.
      t.clock.advance(1000)
      const fresh = await queue(report.id)
      await work()
      const detail = await get(`${API}/reports/${report.id}/runs/${fresh.id}`, viewer1)
      expect(detail.statusCode, detail.body).toBe(200)
      expect(detail.json().rows).toEqual([['prod', 100, 'USD']])
      const link = await get(`${API}/reports/${report.id}/runs/${fresh.id}/csv`, viewer1)
      expect(link.statusCode, link.body).toBe(302)
      const signed = new URL(link.headers.location as string)
      const csv = await t.request('GET', signed.pathname + signed.search, null)
      expect(csv.statusCode).toBe(200)
      expect(csv.body).not.toContain('secret-eu')
      expect((await asBrowser(`${APP}/reports/${report.id}/runs/${fresh.id}/pdf`)).statusCode).toBe(200)
      const listed = (await get(`${API}/reports/${report.id}/runs`, viewer1)).json()
      expect(listed.items.map((r: ReportRunRecord) => r.id)).toEqual([fresh.id])
      expect(listed.totalCount).toBe(1)
      expect((await get(`${API}/reports/${report.id}`, viewer1)).json().lastRun.id).toBe(fresh.id)
      const all = (await get(`${API}/reports/${report.id}/runs`, viewer1and2)).json()
      expect(all.items.map((r: ReportRunRecord) => r.id)).toEqual([fresh.id, old.id])
    })

    it('covers what the report covered when the run was queued, whatever the report covers when it starts', async () => {
      // Queued over T1 and T2, narrowed before a worker takes it: it still renders both, and stays hidden from T1.
      const wide = await create([t1.id, t2.id])
      const before = await queue(wide.id)
      await narrow(wide.id, [t1.id])
      await work()
      const rendered = await get(`${API}/reports/${wide.id}/runs/${before.id}`, viewer1and2)
      expect(rendered.json()).toMatchObject({ status: 'Succeeded' })
      expect(rendered.json().rows).toContainEqual(['secret-eu', 70, 'EUR'])
      await expectUnknownRun((path) => get(`${API}${path}`, viewer1), wide.id, before.id)

      // Queued over T1, widened to T1 and T2 before it starts: it renders T1 alone.
      const narrowReport = await create([t1.id])
      const queued = await queue(narrowReport.id)
      await narrow(narrowReport.id, [t1.id, t2.id])
      await work()
      await narrow(narrowReport.id, [t1.id])
      const only1 = await get(`${API}/reports/${narrowReport.id}/runs/${queued.id}`, viewer1)
      expect(only1.statusCode, only1.body).toBe(200)
      expect(only1.json().rows).toEqual([['prod', 100, 'USD']])
    })

    it('records an organisation-wide run as such: owners only, even once the report covers T1', async () => {
      const report = await create(null)
      const run = await queue(report.id)
      await work()
      await narrow(report.id, [t1.id])
      await expectUnknownRun((path) => get(`${API}${path}`, viewer1), report.id, run.id)
      await expectUnknownRun((path) => get(`${API}${path}`, viewer1and2), report.id, run.id)
      const owner = await get(`${API}/reports/${report.id}/runs/${run.id}`, org.ownerKey)
      expect(owner.statusCode).toBe(200)
      expect(owner.json().rows).toContainEqual(['secret-eu', 70, 'EUR'])
      expect((await get(`${API}/reports/${report.id}/runs`, viewer1and2)).json().totalCount).toBe(0)
      expect((await get(`${API}/reports/${report.id}/runs`, org.ownerKey)).json().totalCount).toBe(1)
    })
  })
}

for (const dialect of testDialects()) {
  describe(`${dialect}: migration 0027 (what each report run covers)`, () => {
    const empty = useEmptyDatabase(dialect)

    it("gives the runs of an older database their report's tenancies as they are, or the whole organisation", async () => {
      const migrator = new Migrator({ db: empty.db.kysely, provider: { getMigrations: async () => migrations } })
      expect((await migrator.migrateTo('0023_daily_costs_by_resource')).error).toBeUndefined()
      const k = empty.db.kysely
      const at = '2026-03-01T09:00:00.000Z'
      await sql`insert into organisations (id, name, plan, created_at) values ('o', 'Org', 'Free', ${at})`.execute(k)
      for (const id of ['t1', 't2', 't3'])
        await sql`insert into tenants (id, organisation_id, name, cloud_tenant_id, credential_type, connector,
          created_at) values (${id}, 'o', ${id}, ${id}, 'ManagedIdentity', 'simulated', ${at})`.execute(k)
      for (const [id, wide] of [
        ['narrow', 0],
        ['wide', 1],
      ] as const)
        await sql`insert into reports (id, organisation_id, name, kind, parameters, organisation_wide, created_at,
          updated_at) values (${id}, 'o', ${id}, 'TopResources', '{}', ${wide}, ${at}, ${at})`.execute(k)
      for (const tenancy of ['t1', 't3'])
        await sql`insert into report_tenancies (report_id, tenancy_id) values ('narrow', ${tenancy})`.execute(k)
      for (const [id, report] of [
        ['run-n1', 'narrow'],
        ['run-n2', 'narrow'],
        ['run-w', 'wide'],
      ] as const)
        await sql`insert into report_runs (id, report_id, status, trigger, requested_at)
          values (${id}, ${report}, 'Succeeded', 'Manual', ${at})`.execute(k)

      expect((await migrator.migrateTo('0027_report_run_coverage')).error).toBeUndefined()
      // Columns come back camel-cased (the CamelCasePlugin).
      const runs = await sql<{ id: string; organisationWide: number }>`
        select id, organisation_wide from report_runs order by id`.execute(k)
      expect(runs.rows.map((r) => [r.id, Number(r.organisationWide)])).toEqual([
        ['run-n1', 0],
        ['run-n2', 0],
        ['run-w', 1],
      ])
      const covered = await sql<{ runId: string; tenancyId: string }>`
        select run_id, tenancy_id from report_run_tenancies order by run_id, tenancy_id`.execute(k)
      expect(covered.rows.map((r) => [r.runId, r.tenancyId])).toEqual([
        ['run-n1', 't1'],
        ['run-n1', 't3'],
        ['run-n2', 't1'],
        ['run-n2', 't3'],
      ])
    })
  })
}
