import { registerKeyCommands } from './apikeys/cli.js'
import { registerAuditCommands } from './audit/cli.js'
import type { RegisterCommands } from './command.js'
import { registerEventCommands } from './events/cli.js'
import { registerOrganisationCommands } from './organisation/cli.js'
import { registerReportCommands } from './reports/cli.js'
import { registerSecretCommands } from './secrets/cli.js'
import { registerImportCommands } from './snapshots/cli.js'
import { registerUserCommands } from './users/cli.js'

/**
 * Every feature's commands (each feature's cli.ts), in the order of `costwatch --help`, after serve, worker and
 * migrate; `main.ts` loops over them. A new feature with commands adds itself here, not to FEATURES (index.ts):
 * that list brings every route and schema, which no command needs.
 *
 * A command loads what it uses, so that the command line starts fast (a CI pipeline's `events create`, the
 * `import focus` benchmark, which times the whole process): these modules import commander and small helpers only,
 * never a feature's routes or schemas (typebox), and `withServices` (main.ts) loads the database and the services
 * when a command runs. Measured from `dist` on 2 cores, median of 5 runs (`node -e 0`: 0.08 s), before and after
 * the commands left FEATURES: `costwatch --help` 0.61 s and 1,004 modules, now 0.12 s and 36 (commander the one
 * package); `audit list` on SQLite 0.67 s, now 0.41 s and 471 modules; `import focus` of a small file 0.68 s, now
 * 0.48 s. test/cli/startup.test.ts fails if a command loads the HTTP stack again.
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
  registerSecretCommands,
]
