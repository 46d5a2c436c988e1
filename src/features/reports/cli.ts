import { type Command, Option } from 'commander'
import type { Principal } from '../../platform/auth/principal.js'
import { ApiError } from '../../platform/http/errors.js'
import { pagingOf } from '../../platform/http/paging.js'
import type { CommandContext } from '../command.js'
import { Frequencies, Weekdays } from './constants.js'
import { REPORT_KIND_NAMES } from './kinds/index.js'
import type { ReportSchedule } from './schemas.js'

/** The command line acts as an owner of the organisation it names. */
function ownerOf(organisationId: string): Principal {
  return {
    organisationId,
    actor: { type: 'System', id: null, name: 'command line' },
    isOwner: true,
    tenancyRoles: new Map(),
  }
}

/** `dimension=Service`, `count=20`: numbers become numbers. */
function parseParam(value: string, previous: Record<string, unknown> = {}) {
  const at = value.indexOf('=')
  if (at < 1) throw ApiError.invalid({ param: [`takes NAME=VALUE, got "${value}"`] })
  const raw = value.slice(at + 1)
  return { ...previous, [value.slice(0, at)]: /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw }
}

/** `daily@6`, `weekly:Friday@7`, `monthly:1@6`. */
function parseSchedule(value: string): ReportSchedule {
  const match = /^(daily|weekly|monthly)(?::(\w+))?@(\d{1,2})$/i.exec(value)
  const frequency = Frequencies.find((f) => f.toLowerCase() === match?.[1]?.toLowerCase())
  if (!match || !frequency)
    throw ApiError.invalid({ schedule: [`takes daily@HOUR, weekly:DAY@HOUR or monthly:DAY@HOUR, got "${value}"`] })
  const hourUtc = Number(match[3])
  const day = match[2]
  if (frequency === 'Weekly' && day) {
    const dayOfWeek = Weekdays.find((d) => d.toLowerCase() === day.toLowerCase())
    if (!dayOfWeek) throw ApiError.invalid({ schedule: [`"${day}" is not a day of the week`] })
    return { frequency, hourUtc, dayOfWeek }
  }
  if (frequency === 'Monthly' && day) return { frequency, hourUtc, dayOfMonth: Number(day) }
  return { frequency, hourUtc }
}

/** `costwatch reports create|list|run`. */
export function registerReportCommands(cli: Command, ctx: CommandContext): void {
  const { withServices, print, fail } = ctx
  const reports = cli.command('reports').description('Report definitions and runs.')
  reports
    .command('create')
    .description('Create a report definition; without --tenancy it covers the whole organisation.')
    .requiredOption('--org <id>', 'organisation id')
    .requiredOption('--name <name>', 'report name')
    .requiredOption('--kind <kind>', REPORT_KIND_NAMES.join(', '))
    .addOption(
      new Option('--param <name=value...>', 'a parameter, e.g. dimension=Service period=LastMonth').argParser(
        parseParam,
      ),
    )
    .option('--tenancy <id...>', 'tenancies the report covers')
    .option('--description <text>', 'what the report is for')
    .addOption(
      new Option('--schedule <when>', 'daily@HOUR, weekly:DAY@HOUR or monthly:DAY@HOUR (UTC)').argParser(parseSchedule),
    )
    .option('--json', 'print one JSON document')
    .action(
      (opts: {
        org: string
        name: string
        kind: string
        param?: Record<string, unknown>
        tenancy?: string[]
        description?: string
        schedule?: ReportSchedule
        json?: boolean
      }) =>
        withServices(async (s) => {
          const organisationId = opts.org.toLowerCase()
          if (!(await s.organisationStore.get(organisationId))) throw ApiError.notFound(`Organisation ${opts.org}`)
          const report = await s.reports.create(ownerOf(organisationId), {
            name: opts.name,
            kind: opts.kind,
            parameters: opts.param ?? {},
            tenancyIds: opts.tenancy ?? null,
            ...(opts.description ? { description: opts.description } : {}),
            ...(opts.schedule ? { schedule: opts.schedule } : {}),
          })
          print(!!opts.json, report, `Report ${report.name} (${report.id})`)
        }).catch(fail),
    )
  reports
    .command('list')
    .description('List the report definitions of an organisation.')
    .requiredOption('--org <id>', 'organisation id')
    .option('--json', 'print one JSON document')
    .action((opts: { org: string; json?: boolean }) =>
      withServices(async (s) => {
        const page = await s.reports.list(ownerOf(opts.org.toLowerCase()), pagingOf({ pageSize: 200 }))
        const lines = page.items.map(
          (r) =>
            `${r.id}  ${r.name}  ${r.kind}  ${r.tenancyIds ? `${r.tenancyIds.length} tenancies` : 'organisation'}` +
            `${r.lastRun ? `  last run ${r.lastRun.status} ${r.lastRun.requestedAt}` : ''}`,
        )
        print(!!opts.json, { items: page.items }, lines.length ? lines.join('\n') : 'No reports.')
      }).catch(fail),
    )
  reports
    .command('run')
    .description('Queue a run of a report; a worker renders its CSV, XLSX and PDF files.')
    .argument('<reportId>', 'the report id')
    .requiredOption('--org <id>', 'the organisation the report belongs to')
    .option('--json', 'print one JSON document')
    .action((reportId: string, opts: { org: string; json?: boolean }) =>
      withServices(async (s) => {
        const who = ownerOf(opts.org.toLowerCase())
        const report = await s.reports.owned(who, reportId.toLowerCase())
        const run = await s.reports.trigger(who, report.id)
        print(!!opts.json, run, `Run ${run.id} of ${report.name} queued`)
      }).catch(fail),
    )
}
