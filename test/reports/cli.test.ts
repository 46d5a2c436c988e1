import { describe, expect, it } from 'vitest'
import { TEST_SECRET_KEY, useTestApp } from '../support/app.js'
import { runCli } from '../support/cli.js'
import { testDialects } from '../support/dialects.js'

for (const dialect of testDialects()) {
  describe(`${dialect}: costwatch reports`, () => {
    const t = useTestApp({ dialect })
    const env = () => ({ COSTWATCH_DATABASE_URL: t.databaseUrl, COSTWATCH_SECRET_KEY: TEST_SECRET_KEY })

    it('creates, lists and queues a run of a report, each printing one JSON document', async () => {
      const org = await t.given.organisation('Cli Reports')
      const tenant = await t.given.tenant(org)
      const created = await runCli(
        [
          'reports',
          'create',
          ...['--org', org.organisationId, '--name', 'Weekly services', '--kind', 'CostByDimension'],
          ...[
            '--param',
            'dimension=Service',
            '--param',
            'top=5',
            '--tenancy',
            tenant.id,
            '--schedule',
            'weekly:Friday@7',
          ],
          '--json',
        ],
        env(),
      )
      expect(created.code, created.stderr).toBe(0)
      const report = JSON.parse(created.stdout)
      expect(report).toMatchObject({
        name: 'Weekly services',
        parameters: { dimension: 'Service', top: 5, period: 'MonthToDate' },
        tenancyIds: [tenant.id],
        schedule: { frequency: 'Weekly', dayOfWeek: 'Friday', hourUtc: 7 },
      })

      const listed = await runCli(['reports', 'list', '--org', org.organisationId, '--json'], env())
      expect(listed.code, listed.stderr).toBe(0)
      expect(JSON.parse(listed.stdout).items.map((r: { name: string }) => r.name)).toContain('Weekly services')

      const run = await runCli(['reports', 'run', report.id, '--org', org.organisationId, '--json'], env())
      expect(run.code, run.stderr).toBe(0)
      expect(JSON.parse(run.stdout)).toMatchObject({ reportId: report.id, status: 'Queued' })

      const bad = await runCli(
        ['reports', 'create', '--org', org.organisationId, '--name', 'x', '--kind', 'CostByDimension'],
        env(),
      )
      expect(bad.code).toBe(1)
      expect(bad.stderr).toContain('parameters.dimension')
      const foreign = await runCli(
        ['reports', 'run', report.id, '--org', (await t.given.organisation('Other')).organisationId],
        env(),
      )
      expect(foreign.code).toBe(1)
    })
  })
}
