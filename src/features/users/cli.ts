import { type Command, Option } from 'commander'
import { TENANCY_ROLES, type TenancyRole } from '../../platform/auth/principal.js'
import { ApiError } from '../../platform/http/errors.js'
import type { CommandContext } from '../feature.js'

/** `costwatch users grant`. */
export function registerUserCommands(cli: Command, ctx: CommandContext): void {
  const { withServices, print, fail } = ctx
  const users = cli.command('users').description('Users.')
  users
    .command('grant')
    .description('Give a member a role on a tenancy.')
    .requiredOption('--tenancy <id>', 'tenancy (tenant) id')
    .requiredOption('--user <id>', 'user id')
    .addOption(new Option('--role <role>', 'the role').choices(TENANCY_ROLES).makeOptionMandatory())
    .option('--json', 'print one JSON document')
    .action((opts: { tenancy: string; user: string; role: TenancyRole; json?: boolean }) =>
      withServices(async (s) => {
        const tenancyId = opts.tenancy.toLowerCase()
        const userId = opts.user.toLowerCase()
        const organisationId = await s.tenantStore.organisationOf(tenancyId)
        if (!organisationId) throw ApiError.notFound(`Tenancy ${opts.tenancy}`)
        if ((await s.users.organisationOf(userId)) !== organisationId) {
          throw ApiError.notFound(`User ${opts.user} in the tenancy's organisation`)
        }
        await s.users.grant(tenancyId, userId, opts.role)
        print(!!opts.json, { tenancyId, userId, role: opts.role }, `${opts.user} is ${opts.role} of ${opts.tenancy}.`)
      }).catch(fail),
    )
}
