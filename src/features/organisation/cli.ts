import type { Command } from 'commander'
import type { CommandContext } from '../command.js'

/** `costwatch org create`. */
export function registerOrganisationCommands(cli: Command, ctx: CommandContext): void {
  const { withServices, print, fail } = ctx
  const org = cli.command('org').description('Organisations.')
  org
    .command('create')
    .description("Create an organisation with its owner and the owner's first API key.")
    .requiredOption('--name <name>', 'organisation name')
    .requiredOption('--owner-email <email>', "the first owner's e-mail address")
    .option('--plan <plan>', 'free, team or enterprise', 'free')
    .option('--json', 'print one JSON document')
    .action((opts: { name: string; ownerEmail: string; plan: string; json?: boolean }) =>
      withServices(async (s) => {
        const created = await s.organisations.create({ name: opts.name, ownerEmail: opts.ownerEmail, plan: opts.plan })
        print(
          !!opts.json,
          created,
          [
            `Organisation ${created.organisation.name} (${created.organisation.id})`,
            `Owner ${created.owner.email} (${created.owner.id})`,
            `API key ${created.key.name} (${created.key.id}); shown once, keep it safe:`,
            created.apiKey,
          ].join('\n'),
        )
      }).catch(fail),
    )
}
