import { existsSync, readFileSync } from 'node:fs'
import type { Command } from 'commander'
import type { CommandContext } from '../command.js'

/** A key given as base64, or as a file holding it (as `secret.key` does): 32 bytes either way. */
export function parseOldKey(value: string, previous: Buffer[] = []): Buffer[] {
  const text = existsSync(value) ? readFileSync(value, 'utf8').trim() : value.trim()
  const key = Buffer.from(text, 'base64')
  // The value is never repeated: it is a key.
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || key.length !== 32)
    throw new Error('--old-key: must be a 32-byte key in base64, or a file holding one')
  return [...previous, key]
}

/** `costwatch secrets reseal`. */
export function registerSecretCommands(cli: Command, ctx: CommandContext): void {
  const { withServices, print, fail } = ctx
  const secrets = cli
    .command('secrets')
    .description('Secrets at rest (tenant client secrets, queued e-mail, notification channels).')
  secrets
    .command('reseal')
    .description(
      'Seal every stored secret again under the current COSTWATCH_SECRET_KEY, in the current format: values of ' +
        'the first format, and values sealed under an --old-key. Safe to run again.',
    )
    .option('--old-key <base64 or file>', 'a key being retired (repeat for more than one)', parseOldKey, [])
    .option('--json', 'print one JSON document')
    .action((opts: { oldKey: Buffer[]; json?: boolean }) =>
      withServices(async (_s, { db, config }) => {
        const [{ createSecretBox }, { resealAll, MAIL_BODY }, tenants, channels] = await Promise.all([
          import('../../platform/crypto.js'),
          import('../../platform/sealed.js'),
          import('../tenants/public.js'),
          import('../notifications/public.js'),
        ])
        const box = createSecretBox(config.secretKey, opts.oldKey)
        const columns = [
          tenants.TENANT_CLIENT_SECRET,
          tenants.TENANT_LOCATION_SECRET,
          MAIL_BODY,
          channels.CHANNEL_URL,
          channels.CHANNEL_SECRET,
          channels.CHANNEL_PREVIOUS_SECRET,
        ]
        const outcome = await resealAll(db, box, columns, (line) => {
          if (!opts.json) process.stdout.write(`${line}\n`)
        })
        const summary = `${outcome.resealed} re-sealed under key ${box.keyId}, ${outcome.unchanged} already current, ${outcome.failed.length} could not be opened.`
        print(!!opts.json, { keyId: box.keyId, ...outcome }, summary)
        if (outcome.failed.length) {
          for (const f of outcome.failed) process.stderr.write(`${f.table} ${f.id}: ${f.reason}\n`)
          throw new Error(
            `${outcome.failed.length} sealed values opened with no key given; pass the key they were sealed under as --old-key.`,
          )
        }
      }).catch(fail),
    )
}
