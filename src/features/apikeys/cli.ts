import { type Command, Option } from 'commander'
import { TENANCY_ROLES, type TenancyRole } from '../../platform/auth/principal.js'
import { ApiError } from '../../platform/http/errors.js'
import type { CommandContext } from '../command.js'

function parseGrant(value: string, previous: { tenancyId: string; role: TenancyRole }[] = []) {
  const [tenancyId, role] = value.split(':')
  if (!tenancyId || !role || !(TENANCY_ROLES as readonly string[]).includes(role)) {
    throw new ApiError(400, 'validation', 'Bad --tenancy', {
      detail: `--tenancy takes TENANCY_ID:ROLE with ROLE one of ${TENANCY_ROLES.join(', ')}, got "${value}"`,
    })
  }
  return [...previous, { tenancyId: tenancyId.toLowerCase(), role: role as TenancyRole }]
}

/** `costwatch keys create|list|revoke`. */
export function registerKeyCommands(cli: Command, ctx: CommandContext): void {
  const { withServices, print, fail } = ctx
  const keys = cli.command('keys').description('API keys.')
  keys
    .command('create')
    .description('Create an API key; without --tenancy it acts with owner rights.')
    .requiredOption('--org <id>', 'organisation id')
    .requiredOption('--name <name>', 'a name that says where the key is used')
    .option('--expires <instant>', 'RFC 3339 expiry instant')
    .addOption(
      new Option('--tenancy <id:role...>', 'limit the key to tenancies with a role (Admin, Editor, Viewer)').argParser(
        parseGrant,
      ),
    )
    .option('--json', 'print one JSON document')
    .action(
      (opts: {
        org: string
        name: string
        expires?: string
        tenancy?: { tenancyId: string; role: TenancyRole }[]
        json?: boolean
      }) =>
        withServices(async (s) => {
          if (!(await s.organisationStore.get(opts.org.toLowerCase())))
            throw ApiError.notFound(`Organisation ${opts.org}`)
          const created = await s.apiKeys.create({
            organisationId: opts.org.toLowerCase(),
            name: opts.name,
            expiresAt: opts.expires ?? null,
            grants: opts.tenancy ?? null,
            createdBy: { type: 'System', id: null, name: 'command line' },
          })
          print(
            !!opts.json,
            created,
            `API key ${created.key.name} (${created.key.id}); shown once, keep it safe:\n${created.apiKey}`,
          )
        }).catch(fail),
    )
  keys
    .command('list')
    .description('List the API keys of an organisation (never their secrets).')
    .requiredOption('--org <id>', 'organisation id')
    .option('--json', 'print one JSON document')
    .action((opts: { org: string; json?: boolean }) =>
      withServices(async (s) => {
        const list = await s.apiKeys.list(opts.org.toLowerCase())
        const lines = list.map(
          (k) =>
            `${k.id}  ${k.prefix}…  ${k.name}  ${k.scope === 'owner' ? 'owner' : k.scope.map((g) => `${g.tenancyId}:${g.role}`).join(',')}` +
            `${k.revokedAt ? `  revoked ${k.revokedAt}` : ''}${k.expiresAt ? `  expires ${k.expiresAt}` : ''}`,
        )
        print(!!opts.json, { items: list }, lines.length ? lines.join('\n') : 'No API keys.')
      }).catch(fail),
    )
  keys
    .command('revoke')
    .description('Revoke an API key now: every request that starts after this gets 401.')
    .argument('<keyId>', 'the key id')
    .requiredOption('--org <id>', 'the organisation the key belongs to')
    .option('--json', 'print one JSON document')
    .action((keyId: string, opts: { org: string; json?: boolean }) =>
      withServices(async (s) => {
        await s.apiKeys.revoke(opts.org.toLowerCase(), keyId.toLowerCase())
        print(!!opts.json, { revoked: keyId.toLowerCase() }, `Revoked ${keyId}.`)
      }).catch(fail),
    )
}
