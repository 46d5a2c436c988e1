import { beforeAll, describe, expect, it } from 'vitest'
import type { ReportRecord, ReportRunRecord } from '../../src/features/reports/schemas.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import { signInOwner } from '../support/members.js'
import { reportTestEnv, seedCosts } from './seed.js'

const APP = '/api/app'
const PUBLIC_URL = 'https://costwatch.example.test'
/** What a browser sends when the user follows a plain link: no CSRF token, no Origin on a GET. */
const LINK_HEADERS = {
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'sec-fetch-mode': 'navigate',
  'sec-fetch-dest': 'document',
  'sec-fetch-site': 'same-origin',
}

/**
 * The web interface's downloads: a run's files are plain links under `/api/app`, followed by the browser with the
 * session cookie alone (a GET carries no CSRF token), the CSV through its signed URL.
 */
for (const dialect of testDialects()) {
  describe(`${dialect}: report downloads in the web interface`, () => {
    const t = useTestApp({
      dialect,
      env: reportTestEnv({ COSTWATCH_PUBLIC_URL: PUBLIC_URL }),
    })
    let org: OrgContext
    let cookie: string
    let report: ReportRecord
    let run: ReportRunRecord

    const asBrowser = (url: string, session: string | null = cookie) =>
      t.app.inject({
        method: 'GET',
        url,
        headers: LINK_HEADERS,
        cookies: session ? { '__Host-costwatch_session': session } : {},
      })

    beforeAll(async () => {
      org = await t.given.organisation('Downloads Ltd')
      const tenant = await t.given.tenant(org, { name: 'Production' })
      await seedCosts(t.db, tenant.id, [{ name: 'vm-web', daily: 10 }], { last: '2026-03-01', days: 5 })
      const owner = await signInOwner(t, org)
      cookie = owner.cookie.value
      const csrf = owner.csrf
      const changes = { 'x-csrf-token': csrf, origin: PUBLIC_URL }
      const created = await t.app.inject({
        method: 'POST',
        url: `${APP}/reports`,
        cookies: { '__Host-costwatch_session': cookie },
        headers: changes,
        payload: {
          name: 'Cost by resource, March',
          kind: 'CostByDimension',
          parameters: { dimension: 'Resource', period: 'Custom', from: '2026-02-25', to: '2026-03-01' },
          tenancyIds: [tenant.id],
        },
      })
      expect(created.statusCode, created.body).toBe(201)
      report = created.json()
      const queued = await t.app.inject({
        method: 'POST',
        url: `${APP}/reports/${report.id}/runs`,
        cookies: { '__Host-costwatch_session': cookie },
        headers: changes,
      })
      expect(queued.statusCode, queued.body).toBe(202)
      const worker = t.worker()
      while (await worker.runOnce()) {}
      run = (await asBrowser(`${APP}/reports/${report.id}/runs/${queued.json().id}`)).json()
      expect(run.status).toBe('Succeeded')
    })

    it('follows the CSV link with the session cookie alone to its signed URL on the public address', async () => {
      const res = await asBrowser(`${APP}/reports/${report.id}/runs/${run.id}/csv`)
      expect(res.statusCode, res.body).toBe(302)
      const location = new URL(res.headers.location as string)
      // The same origin as the pages, so the browser follows it and saves the file.
      expect(location.origin).toBe(PUBLIC_URL)
      const file = await asBrowser(location.pathname + location.search, null)
      expect(file.statusCode, file.body).toBe(200)
      expect(file.headers['content-type']).toBe('text/csv; charset=utf-8')
      expect(file.headers['content-disposition']).toBe(
        'attachment; filename="cost-by-resource-march-2026-02-25-to-2026-03-01.csv"',
      )
      expect(file.body.replace(/^\uFEFF/, '').split('\r\n')[1]).toBe(
        'vm-web,Microsoft.Compute/virtualMachines,rg-main,sub-a,50,USD',
      )
    })

    it('answers the PDF and XLSX links with the file itself, and no link without a session', async () => {
      const pdf = await asBrowser(`${APP}/reports/${report.id}/runs/${run.id}/pdf`)
      expect(pdf.statusCode, pdf.body).toBe(200)
      expect(pdf.headers['content-type']).toBe('application/pdf')
      expect(pdf.headers['content-disposition']).toBe(
        'attachment; filename="cost-by-resource-march-2026-02-25-to-2026-03-01.pdf"',
      )
      expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-')
      const xlsx = await asBrowser(`${APP}/reports/${report.id}/runs/${run.id}/xlsx`)
      expect(xlsx.statusCode, xlsx.body).toBe(200)
      expect(xlsx.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      expect(xlsx.headers['content-disposition']).toContain('.xlsx"')
      expect(xlsx.rawPayload.subarray(0, 2).toString('latin1')).toBe('PK') // a ZIP container

      for (const format of ['csv', 'pdf', 'xlsx']) {
        const anonymous = await asBrowser(`${APP}/reports/${report.id}/runs/${run.id}/${format}`, null)
        expect(anonymous.statusCode).toBe(401)
        expect(anonymous.headers['content-disposition']).toBeUndefined()
      }
    })
  })
}
