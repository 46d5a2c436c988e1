import type { Command } from 'commander'
import type { Config, ConnectorName } from '../config.js'
import type { Db } from '../platform/db/index.js'
import type { Services } from '../services.js'
import { registerKeyCommands } from './apikeys/cli.js'
import { registerAuditCommands } from './audit/cli.js'
import { registerEventCommands } from './events/cli.js'
import { registerOrganisationCommands } from './organisation/cli.js'
import { registerReportCommands } from './reports/cli.js'
import { registerImportCommands } from './snapshots/cli.js'
import { registerUserCommands } from './users/cli.js'

/** What the command line gives a feature's commands: the wired services, and one way to print and to fail. */
export interface CommandContext {
  /** Opens the configured database, migrated, with every feature wired; closes it when `work` is done. */
  withServices<T>(
    work: (s: Services, ctx: { db: Db; config: Config }) => Promise<T>,
    options?: { defaultConnector?: ConnectorName },
  ): Promise<T>
  /** Prints `value` as JSON with --json, `human` otherwise. */
  print(json: boolean, value: unknown, human: string): void
  /** Prints the error (fields of an ApiError included) and exits 1. */
  fail(err: unknown): never
}

/** Adds a feature's `costwatch` subcommands. */
export type RegisterCommands = (cli: Command, ctx: CommandContext) => void

/**
 * Every feature's commands (each feature's cli.ts), in the order of `costwatch --help`, after serve, worker and
 * migrate; `main.ts` loops over them. A new feature with commands adds itself here, not to FEATURES (index.ts):
 * that list brings every route and schema, which no command needs.
 *
 * A command loads what it uses, so that the command line starts fast (a CI pipeline's `events create`, the
 * `import focus` benchmark): these modules import commander and small helpers only, never a feature's routes or
 * schemas (typebox), and `withServices` loads the database and the services when a command runs. Measured from
 * `dist` on 2 cores, median of 5: `costwatch --help` took 610 ms and loaded 1,004 modules (typebox, kysely,
 * prom-client, every routes.ts) when the commands hung on FEATURES; now it takes ~~ ms and loads ~~ modules.
 * test/cli/startup.test.ts fails if the HTTP stack comes back.
 */
export const COMMANDS: readonly RegisterCommands[] = [
  registerOrganisationCommands,
  registerImportCommands,
  // Talks HTTP to a running service, not to the database: it needs none of the services.
  (cli) => registerEventCommands(cli),
  registerReportCommands,
  registerUserCommands,
  registerKeyCommands,
  registerAuditCommands,
]
