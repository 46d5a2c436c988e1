import { type Command, Option } from 'commander'
import { FROM_CLI } from '../../platform/audit.js'
import { TENANCY_ROLES, type TenancyRole } from '../../platform/auth/principal.js'
import type { CommandContext } from '../command.js'

/** `costwatch users grant|revoke`: tenancy roles, recorded in the audit log as done from the command line. */
export function registerUserCommands(cli: Command, ctx: CommandContext): void {
  const { withServices, print, fail } = ctx
  const users = cli.command('users').description('Users.')
  users
    .command('grant')
    .description('Give a member a role on a tenancy (or change it).')
    .requiredOption('--tenancy <id>', 'tenancy (tenant) id')
    .requiredOption('--user <id>', 'user id')
    .addOption(new Option('--role <role>', 'the role').choices(TENANCY_ROLES).makeOptionMandatory())
    .option('--json', 'print one JSON document')
    .action((opts: { tenancy: string; user: string; role: TenancyRole; json?: boolean }) =>
      withServices(async (s) => {
        const tenancyId = opts.tenancy.toLowerCase()
        const userId = opts.user.toLowerCase()
        await s.users.grantRole(FROM_CLI, tenancyId, userId, opts.role)
        print(!!opts.json, { tenancyId, userId, role: opts.role }, `${opts.user} is ${opts.role} of ${opts.tenancy}.`)
      }).catch(fail),
    )
  users
    .command('revoke')
    .description("Remove a member's role on a tenancy.")
    .requiredOption('--tenancy <id>', 'tenancy (tenant) id')
    .requiredOption('--user <id>', 'user id')
    .option('--json', 'print one JSON document')
    .action((opts: { tenancy: string; user: string; json?: boolean }) =>
      withServices(async (s) => {
        const tenancyId = opts.tenancy.toLowerCase()
        const userId = opts.user.toLowerCase()
        await s.users.revokeRole(FROM_CLI, tenancyId, userId)
        print(!!opts.json, { tenancyId, userId, role: null }, `${opts.user} has no role on ${opts.tenancy}.`)
      }).catch(fail),
    )
}
