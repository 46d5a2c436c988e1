import type { Command } from 'commander'
import type { FastifyInstance } from 'fastify'
import type { TSchema } from 'typebox'
import type { Config, ConnectorName } from '../config.js'
import type { Db } from '../platform/db/index.js'
import type { Services } from '../services.js'

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

/**
 * What a feature adds to the product; `app.ts` and `main.ts` loop over `FEATURES` (features/index.ts).
 * Every route declares its requirement (`config.requires`): the app refuses to start otherwise.
 */
export interface Feature {
  name: string
  /** Records with an `$id`, registered once: they validate, serialise and appear by name in the OpenAPI document. */
  schemas?: readonly TSchema[]
  /**
   * Registers the feature's routes with the options they take from the services: under the public API's prefix
   * (API keys), and again under `/api/app` for the web interface (its session), with the same permissions.
   */
  routes?(api: FastifyInstance, services: Services): PromiseLike<unknown>
  /** Routes of the web interface's API alone (`/api/app`: sign-in, settings), outside the public API. */
  appRoutes?(app: FastifyInstance, services: Services): PromiseLike<unknown>
  /** Registers pages outside the API prefix (links from e-mails); each route declares `requires` all the same. */
  pages?(app: FastifyInstance, services: Services): PromiseLike<unknown>
  /** Adds the feature's `costwatch` subcommands. */
  commands?(cli: Command, ctx: CommandContext): void
}
