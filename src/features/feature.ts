import type { FastifyInstance } from 'fastify'
import type { TSchema } from 'typebox'

/**
 * What a feature adds to the HTTP app; `app.ts` loops over `FEATURES` (features/index.ts). Its `costwatch`
 * subcommands are listed apart, in COMMANDS (features/commands.ts), so that the command line loads none of this.
 * Every route declares its requirement (`config.requires`): the app refuses to start otherwise.
 *
 * `Needs` is what the feature's routes and pages use of the services, named by the feature with its own types
 * (`Feature<{ costs: CostService }>`): that is all they are given, and `app.ts`, which hands them the services,
 * fails to type-check when the services do not provide it. The members are function properties, not methods, so
 * that TypeScript checks their parameter strictly: a feature that needs services cannot pass for a plain `Feature`
 * (which needs none) and so escape that check.
 */
export interface Feature<Needs = unknown> {
  name: string
  /** Records with an `$id`, registered once: they validate, serialise and appear by name in the OpenAPI document. */
  schemas?: readonly TSchema[]
  /**
   * Registers the feature's routes with the options they take from the services: under the public API's prefix
   * (API keys), and again under `/api/app` for the web interface (its session), with the same permissions.
   */
  routes?: (api: FastifyInstance, services: Needs) => PromiseLike<unknown>
  /** Routes of the web interface's API alone (`/api/app`: sign-in, settings), outside the public API. */
  appRoutes?: (app: FastifyInstance, services: Needs) => PromiseLike<unknown>
  /** Registers pages outside the API prefix (links from e-mails); each route declares `requires` all the same. */
  pages?: (app: FastifyInstance, services: Needs) => PromiseLike<unknown>
}
