import type { Command } from 'commander'
import { ApiError } from '../../platform/http/errors.js'
import type { CommandContext } from '../command.js'

/** `costwatch audit list`. */
export function registerAuditCommands(cli: Command, ctx: CommandContext): void {
  const { withServices, print, fail } = ctx
  const audit = cli.command('audit').description('The audit log: who changed access to what, when and from where.')
  audit
    .command('list')
    .description('List audit entries, newest first.')
    .option('--org <id>', "only this organisation's entries")
    .option('--limit <n>', 'at most this many entries', '100')
    .option('--json', 'print one JSON document')
    .action((opts: { org?: string; limit: string; json?: boolean }) =>
      withServices(async (s) => {
        if (!/^\d+$/.test(opts.limit) || Number(opts.limit) < 1 || Number(opts.limit) > 10_000)
          throw ApiError.invalid({ limit: ['must be a whole number from 1 to 10000'] })
        const organisationId = opts.org?.toLowerCase()
        if (organisationId && !(await s.organisationStore.get(organisationId)))
          throw ApiError.notFound(`Organisation ${opts.org}`)
        const items = await s.audit.list({ organisationId, limit: Number(opts.limit) })
        const lines = items.map(
          (e) =>
            `${e.at}  ${e.action}  ${e.target.type} ${e.target.id}  by ${e.actor.type} ${e.actor.name ?? e.actor.id ?? ''}` +
            `  from ${e.origin}${e.detail ? `  ${JSON.stringify(e.detail)}` : ''}`,
        )
        print(!!opts.json, { items }, lines.length ? lines.join('\n') : 'No audit entries.')
      }).catch(fail),
    )
}
