import type { Command } from 'commander'
import type { CommandContext } from '../command.js'

/** `costwatch import focus`. */
export function registerImportCommands(cli: Command, ctx: CommandContext): void {
  const { withServices, print, fail } = ctx
  cli
    .command('import')
    .description('Load cost data from files.')
    .command('focus')
    .description('Load FOCUS 1.0/1.1 cost exports (CSV, optionally gzip) into a tenant, as one snapshot run.')
    .requiredOption('--tenant <id>', 'tenant id')
    .argument('<files...>', 'FOCUS files (.csv or .csv.gz)')
    .option('--skip-bad-rows', 'import the good rows and list the bad ones, instead of importing nothing')
    .option('--json', 'print one JSON document')
    .action((files: string[], opts: { tenant: string; skipBadRows?: boolean; json?: boolean }) =>
      withServices(
        async (s) => {
          // Loaded with the services (which import it) when the command runs, not for `costwatch --help`.
          const { FocusImportRejected, progressText } = await import('./import.js')
          try {
            const outcome = await s.importFocus(opts.tenant.toLowerCase(), files, {
              skipBadRows: opts.skipBadRows,
              // On stderr, so that stdout stays one JSON document with --json.
              onProgress: (p) => {
                process.stderr.write(`${progressText(p)}\n`)
              },
            })
            const issues = [...outcome.errors, ...outcome.warnings].map((e) => `  ${e.file}:${e.line}: ${e.message}`)
            print(
              !!opts.json,
              outcome,
              [
                `Imported ${outcome.rowsRead - outcome.rowsRejected} of ${outcome.rowsRead} rows from ${files.length} file(s) ` +
                  `into run ${outcome.run.id}: ${outcome.run.stats.costRows} daily cost rows from ${outcome.run.periodStart} to ` +
                  `${outcome.run.periodEnd}, ${outcome.totalCost} ${outcome.currency}.`,
                ...(issues.length ? ['Skipped or noted:', ...issues] : []),
              ].join('\n'),
            )
          } catch (err) {
            if (!(err instanceof FocusImportRejected)) throw err
            const { errors, errorCount } = err.parsed
            if (opts.json) print(true, { imported: false, errorCount, errors }, '')
            const shown = errors.map((e) => `  ${e.file}:${e.line}: ${e.message}`)
            const more = errorCount > errors.length ? [`  ... and ${errorCount - errors.length} more`] : []
            process.stderr.write(`error: ${err.message}\n${[...shown, ...more].join('\n')}\n`)
            process.exitCode = 1
          }
        },
        { writesMuch: true },
      ).catch(fail),
    )
}
