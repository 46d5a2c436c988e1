import type { Migration } from 'kysely'
import * as foundation from './0001_foundation.js'
import * as inventory from './0002_inventory.js'
import * as events from './0003_events.js'
import * as collection from './0004_collection.js'
import * as runRetries from './0005_run_retries.js'
import * as analysisRuns from './0006_analysis_runs.js'
import * as anomalies from './0009_anomalies.js'
import * as insights from './0010_insights.js'
import * as usersMailAudit from './0011_users_mail_audit.js'
import * as reports from './0012_reports.js'
import * as sessions from './0013_sessions.js'
import * as chargeCategorySeries from './0014_charge_category_series.js'
import * as tagSeries from './0017_tag_series.js'
import * as resourceNameOrder from './0020_resource_name_order.js'
import * as resourceIds from './0021_resource_ids.js'
import * as dailyCostsByKey from './0022_daily_costs_by_key.js'
import * as dailyCostsByResource from './0023_daily_costs_by_resource.js'
import * as keysOfTheCommandLine from './0024_keys_of_the_command_line.js'
import * as signInFailures from './0025_sign_in_failures.js'
import * as reportRunCoverage from './0027_report_run_coverage.js'
import * as anomalyEpisodes from './0028_anomaly_episodes.js'
import * as costCoverage from './0029_cost_coverage.js'
import * as notifications from './0030_notifications.js'
import * as markerPredictions from './0032_marker_predictions.js'
import * as budgets from './0033_budgets.js'
import * as tagSeriesByScope from './0034_tag_series_by_scope.js'
import * as costSources from './0035_cost_sources.js'
import * as resourcesWithoutGroups from './0036_resources_without_groups.js'
import * as dailyCostsByMonth from './0037_daily_costs_by_month.js'
import * as runningCostsByMonth from './0038_running_costs_by_month.js'

/** Every migration in order; names sort in the order they apply. Each one runs on SQLite and PostgreSQL. */
export const migrations: Record<string, Migration> = {
  '0001_foundation': foundation,
  '0002_inventory': inventory,
  '0003_events': events,
  '0004_collection': collection,
  '0005_run_retries': runRetries,
  '0006_analysis_runs': analysisRuns,
  '0009_anomalies': anomalies,
  '0010_insights': insights,
  '0011_users_mail_audit': usersMailAudit,
  '0013_sessions': sessions,
  '0012_reports': reports,
  '0014_charge_category_series': chargeCategorySeries,
  '0017_tag_series': tagSeries,
  '0020_resource_name_order': resourceNameOrder,
  '0021_resource_ids': resourceIds,
  '0022_daily_costs_by_key': dailyCostsByKey,
  '0023_daily_costs_by_resource': dailyCostsByResource,
  '0024_keys_of_the_command_line': keysOfTheCommandLine,
  '0025_sign_in_failures': signInFailures,
  '0027_report_run_coverage': reportRunCoverage,
  '0028_anomaly_episodes': anomalyEpisodes,
  '0029_cost_coverage': costCoverage,
  '0030_notifications': notifications,
  '0032_marker_predictions': markerPredictions,
  '0033_budgets': budgets,
  '0034_tag_series_by_scope': tagSeriesByScope,
  '0035_cost_sources': costSources,
  '0036_resources_without_groups': resourcesWithoutGroups,
  '0037_daily_costs_by_month': dailyCostsByMonth,
  '0038_running_costs_by_month': runningCostsByMonth,
}
