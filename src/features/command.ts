// The contract between the command line and a feature's cli.ts, apart from COMMANDS (commands.ts), which imports
// every cli.ts: a cli.ts importing it from there would close a circle.
import type { Command } from 'commander'
import type { Config, ConnectorName } from '../config.js'
import type { Db } from '../platform/db/index.js'
import type { Services } from '../services.js'

/** What the command line gives a feature's commands: the wired services, and one way to print and to fail. */
export interface CommandContext {
  /** Opens the configured database, migrated, with every feature wired; closes it when `work` is done. */
  withServices<T>(
    work: (s: Services, ctx: { db: Db; config: Config }) => Promise<T>,
    options?: {
      defaultConnector?: ConnectorName
      /** A command that writes much (an import): SQLite's checkpoints in a thread of their own. */
      writesMuch?: boolean
    },
  ): Promise<T>
  /** Prints `value` as JSON with --json, `human` otherwise. */
  print(json: boolean, value: unknown, human: string): void
  /** Prints the error (fields of an ApiError included) and exits 1. */
  fail(err: unknown): never
}

/** Adds a feature's `costwatch` subcommands. */
export type RegisterCommands = (cli: Command, ctx: CommandContext) => void
