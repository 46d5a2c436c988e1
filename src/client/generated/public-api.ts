// Generated from the app's OpenAPI document by `npm run generate:api` (scripts/generate-api-types.ts): do not edit.

export interface paths {
    "/anomalies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Cost anomalies across the tenancies the key can see.
         * @description Newest dateRaised first (id last). Filters combine: severity, status, dateRaised (the UTC day raised) and tenancyId (a tenancy the key cannot see gives an empty page). Extensions to the specification: from and to (UTC days raised, both included; from after to is a 400), and scope (with subscriptionId for a group): the anomalies drawn on that cost chart, its own and those of the scopes inside it; incidentId: the anomalies of one incident; view=incidents: only the anomalies heading an incident, one item per incident (incidentSize says how many anomalies it holds). Severity grows with the impact in units of the minimum impact (COSTWATCH_ANOMALY_MIN_IMPACT, 25 by default): High from 10 times the minimum with a change of at least 50% of the expected cost, Medium from 3 times the minimum, Low below.
         */
        get: operations["PublicListAnomalies"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/anomalies/{anomalyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One anomaly, with its drivers and related event markers. */
        get: operations["PublicGetAnomaly"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Acknowledges or resolves an anomaly. Needs Editor.
         * @description Any status may move to Acknowledged or Resolved, and the change is recorded in statusChangedAt and statusChangedBy. Repeating the current status is a 200 that changes nothing. Active (or any other value) is a 400: only detection raises an anomaly. Later analysis runs never change a status set here. Extension: feedback (Expected, NotAnAnomaly, Confirmed, or null to clear), recorded in feedbackAt and feedbackBy and never changed by analysis. Expected (given or taken back) queues an analysis run of the tenancy from the episode's start: the change becomes the new level of its scope, and of the other scopes of the incident it heads, at once. NotAnAnomaly is counted per tenancy (GET /tenants/{tenantId}/anomaly-feedback).
         */
        patch: operations["PublicUpdateAnomalyStatus"];
        trace?: never;
    };
    "/budgets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Budgets the key can see, by name (id last), each with its status.
         * @description A budget is listed when the key can see every tenancy it covers. Owners manage every budget; the Admins of tenancies manage the budgets whose scope.tenancyIds are all tenancies they administer (and their Viewers read them). A budget of the whole organisation (tenancyIds null) is for owners. Each budget carries `status`, its current period as of today: the spend so far, the forecast at the period end with its 80% interval, the percent of the amount, the day the forecast crosses it, and each threshold Ok or Alarm since a day (a threshold alarms once a period).
         */
        get: operations["ListBudgets"];
        put?: never;
        /**
         * Creates a budget: an amount per period for a scope, with thresholds that alert.
         * @description Owners manage every budget; the Admins of tenancies manage the budgets whose scope.tenancyIds are all tenancies they administer (and their Viewers read them). A budget of the whole organisation (tenancyIds null) is for owners. Defaults: startDate the first day of the current month (Custom: its first period's), costBasis Effective, no thresholds. Refused with 400, nothing saved: a tenancy not of the organisation, `amount` with period Custom or `periods` without it, Custom periods that overlap or end before they start, more than 10 thresholds. Each budget carries `status`, its current period as of today: the spend so far, the forecast at the period end with its 80% interval, the percent of the amount, the day the forecast crosses it, and each threshold Ok or Alarm since a day (a threshold alarms once a period).
         */
        post: operations["CreateBudget"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/budgets/{budgetId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One budget, with its status.
         * @description Each budget carries `status`, its current period as of today: the spend so far, the forecast at the period end with its 80% interval, the percent of the amount, the day the forecast crosses it, and each threshold Ok or Alarm since a day (a threshold alarms once a period).
         */
        get: operations["GetBudget"];
        put?: never;
        post?: never;
        /** Deletes a budget. */
        delete: operations["DeleteBudget"];
        options?: never;
        head?: never;
        /**
         * Changes a budget.
         * @description Absent fields are unchanged; the budget as changed is checked as at creation. A change of period to `Custom` drops the amount, and from it the periods, unless the request names them. A change of what the thresholds measure (period, amount, periods, startDate, scope, currency, costBasis, thresholds) restarts their latches: each may alarm again this period. Owners manage every budget; the Admins of tenancies manage the budgets whose scope.tenancyIds are all tenancies they administer (and their Viewers read them). A budget of the whole organisation (tenancyIds null) is for owners.
         */
        patch: operations["UpdateBudget"];
        trace?: never;
    };
    "/insights": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Cost-reduction insights across the tenancies the key can see, largest saving first (id last).
         * @description Only Active insights unless `includeDismissed=true` (dismissed: any status but Active; a snooze that has passed is Active again). `tenancyId` narrows to one tenancy; one the key cannot see gives an empty page.
         */
        get: operations["PublicListInsights"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/insights/{insightId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One insight, with its status as of now. */
        get: operations["PublicGetInsight"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Acts on an insight. Needs Editor or above.
         * @description The resulting `status` is the action. `Snoozed` needs `snoozeDays` (1 to 365, an integer or a numeric string) and sets `snoozedUntil`; once it passes the insight is Active again. `snoozeDays` with another action, and `AutoResolved` (set only by the service), are 400s. Repeating the current status is a 200 that changes nothing; `Snoozed` again snoozes anew from now. The action is kept as `lastAction`.
         */
        patch: operations["PublicUpdateInsightStatus"];
        trace?: never;
    };
    "/notification-channels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organisation's notification channels, by name (id last). Owners, and the Admins of a tenancy, who choose channels for the rules of their tenancies (they cannot change channels). */
        get: operations["ListNotificationChannels"];
        put?: never;
        /**
         * Creates a notification channel. Owners only.
         * @description Slack, Teams and Webhook take `url` (https; http and addresses that are not public only within COSTWATCH_OUTBOUND_ALLOW); Email takes `emails` and/or `userIds`. A Webhook channel is answered with its signing secret (`secret`), this once. URLs and signing secrets are sealed at rest and never returned: a record says `urlHost` and `hasSecret`.
         */
        post: operations["CreateNotificationChannel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notification-channels/{channelId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One notification channel. Owners only.
         * @description URLs and signing secrets are sealed at rest and never returned: a record says `urlHost` and `hasSecret`.
         */
        get: operations["GetNotificationChannel"];
        put?: never;
        post?: never;
        /**
         * Deletes a notification channel with its deliveries. Owners only.
         * @description Rules that name it no longer send to it.
         */
        delete: operations["DeleteNotificationChannel"];
        options?: never;
        head?: never;
        /**
         * Changes a notification channel. Owners only.
         * @description Absent fields are unchanged; the type cannot change. `enabled: true` enables a channel that was disabled (by a person, or by a 410 or failed deliveries) and clears `disabledReason`. A new `url` keeps a Webhook channel’s signing secret.
         */
        patch: operations["UpdateNotificationChannel"];
        trace?: never;
    };
    "/notification-channels/{channelId}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The channel's delivery log, newest first, with each delivery's last attempt. Owners.
         * @description Pending: queued or being sent (`nextAttemptAt` says when the next attempt is due); Succeeded; Accepted (Teams took it; its flow may still fail later); Failed (every attempt failed, a 410, or a disabled channel). `lastError` never holds the URL.
         */
        get: operations["ListNotificationDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notification-channels/{channelId}/deliveries/{deliveryId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sends a delivery again, with the same `webhook-id` and a fresh schedule of attempts. Owners.
         * @description The redelivery is a new delivery in the log (`deliveryId`); the earlier one keeps its attempts. A receiver that already has the message can tell by its `webhook-id`. A disabled channel is a 409.
         */
        post: operations["RedeliverNotification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notification-channels/{channelId}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A new signing secret for a Webhook channel, answered this once. Owners only.
         * @description The secret it replaces keeps signing beside the new one (two signatures in `webhook-signature`) until `previousSecretUntil`, 24 hours, so receivers can be updated without losing a message. Rotating again within those 24 hours retires the older of the two at once. 409 for a channel that is not a Webhook.
         */
        post: operations["RotateNotificationChannelSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notification-channels/{channelId}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sends a `test` event to the channel at once. Owners.
         * @description The test names the channel and the organisation; follow it in the delivery log by `deliveryId`. A disabled channel is a 409.
         */
        post: operations["TestNotificationChannel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notification-rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Alert rules the key can see, by name (id last).
         * @description A rule is listed when the key can see every tenancy it covers. Owners manage every rule; the Admins of tenancies manage the rules whose scope.tenancyIds are all tenancies they administer (and their Viewers read them). A rule of the whole organisation (tenancyIds null) is for owners.
         */
        get: operations["ListNotificationRules"];
        put?: never;
        /**
         * Creates an alert rule: which events go to which channels.
         * @description Owners manage every rule; the Admins of tenancies manage the rules whose scope.tenancyIds are all tenancies they administer (and their Viewers read them). A rule of the whole organisation (tenancyIds null) is for owners. Defaults: enabled, frequency Immediate (a Digest trigger: Daily), digestHour 8, digestWeekday Monday, timeZone UTC, combine any. Refused with 400, nothing saved: a channel or tenancy not of the organisation, a trigger field of another trigger type, a time zone that is not IANA's, digest fields with frequency Immediate, a Digest trigger with frequency Immediate.
         */
        post: operations["CreateNotificationRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notification-rules/{ruleId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One alert rule. */
        get: operations["GetNotificationRule"];
        put?: never;
        post?: never;
        /** Deletes an alert rule. */
        delete: operations["DeleteNotificationRule"];
        options?: never;
        head?: never;
        /**
         * Changes an alert rule.
         * @description Absent fields are unchanged; the rule as changed is checked as at creation. Owners manage every rule; the Admins of tenancies manage the rules whose scope.tenancyIds are all tenancies they administer (and their Viewers read them). A rule of the whole organisation (tenancyIds null) is for owners.
         */
        patch: operations["UpdateNotificationRule"];
        trace?: never;
    };
    "/notification-rules/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Which of the last 30 days' anomalies a rule would have alerted about; nothing is saved.
         * @description The body is a rule as it would be created (name and channels may be missing). The anomalies raised in the last 30 days, of the tenancies the key sees, are matched as the alert run matches them: scope, thresholds, one alert per incident. Whether each was already sent is not considered.
         */
        post: operations["PreviewNotificationRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/organisation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organisation of the API key. */
        get: operations["PublicGetOrganisation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Report definitions the key can see, by name (id last).
         * @description A report is listed when the key can see every tenancy it covers; organisation-wide reports (tenancyIds null) are listed for owners and owner-scoped keys only.
         */
        get: operations["PublicListReports"];
        put?: never;
        /**
         * Creates a report definition. Owners only.
         * @description The kind decides the parameters (see the Report schema). `tenancyIds` null covers the whole organisation, every tenancy present when a run starts. An optional schedule queues a run each day, week or month.
         */
        post: operations["CreateReport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reports/{reportId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One report definition, with its latest run. */
        get: operations["PublicGetReport"];
        put?: never;
        post?: never;
        /** Deletes a report definition with its runs and files. Owners only. */
        delete: operations["DeleteReport"];
        options?: never;
        head?: never;
        /**
         * Changes a report definition. Owners only.
         * @description Absent fields are unchanged; the kind cannot change (create another report).
         */
        patch: operations["UpdateReport"];
        trace?: never;
    };
    "/reports/{reportId}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Runs of a report, newest first (id last).
         * @description A run covers the tenancies of its report when it was queued (an organisation-wide one: owners only); only the runs whose every tenancy the key sees are listed.
         */
        get: operations["PublicListReportRuns"];
        put?: never;
        /**
         * Starts a report run (202 with Location).
         * @description Needs Editor on every tenancy the report covers (an organisation-wide report: an owner). The run is queued; follow it at the Location, from Queued through Running to Succeeded (its files can then be downloaded) or Failed (with `error`).
         */
        post: operations["PublicTriggerReportRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reports/{reportId}/runs/{runId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A run with its data (up to 10,000 rows).
         * @description A run and its files are read by a key that sees every tenancy the run covered (those of its report when it was queued) and the report as it is; otherwise 404, exactly like an unknown run.
         */
        get: operations["PublicGetReportRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reports/{reportId}/runs/{runId}/csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Redirects (302) to a signed CSV URL.
         * @description The URL needs no API key and lives 5 minutes (COSTWATCH_SIGNED_URL_SECONDS); a changed or expired URL answers 403. Cells that a spreadsheet would take for a formula are escaped. 409 until the run succeeded.
         */
        get: operations["PublicDownloadReportRunCsv"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reports/{reportId}/runs/{runId}/pdf": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The run as PDF.
         * @description 409 until the run succeeded.
         */
        get: operations["PublicDownloadReportRunPdf"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reports/{reportId}/runs/{runId}/xlsx": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The run as XLSX.
         * @description 409 until the run succeeded.
         */
        get: operations["PublicDownloadReportRunXlsx"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenancies/{tenancyId}/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Users with a role on the tenancy, owners included (Admin), by e-mail address. Needs an owner or the tenancy Admin. */
        get: operations["PublicListTenancyUsers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenancies/{tenancyId}/users/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Gives a user a role on the tenancy, or changes it. Needs an owner or the tenancy's Admin.
         * @description Repeating the role held is a 200 with no change. A user of another organisation is a 404.
         */
        put: operations["GrantTenancyRole"];
        post?: never;
        /**
         * Removes a user's role on the tenancy. Needs an owner or the tenancy's Admin.
         * @description A user who holds no role there is a 204 all the same (nothing to remove). An owner stays Admin of every tenancy whatever roles are stored.
         */
        delete: operations["RevokeTenancyRole"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Tenants the key can see, by name. */
        get: operations["PublicListTenants"];
        put?: never;
        /** Connects a cloud tenant. Needs an organisation owner. */
        post: operations["PublicCreateTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One tenant. */
        get: operations["PublicGetTenant"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/anomaly-feedback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * How many of a tenancy's anomalies people marked Expected, NotAnAnomaly or Confirmed.
         * @description Counts over all the tenancy's anomalies (any day, any status), and their number: confirmed / (confirmed + notAnAnomaly) is the precision of detection in use.
         */
        get: operations["GetAnomalyFeedbackCounts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/cost-files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Imports one FOCUS file (CSV, gzip CSV or Parquet, FOCUS 1.0 to 1.2) into a FocusUpload tenant: 202 with Location and the import run, which replaces each billing period the file holds. At most COSTWATCH_UPLOAD_MAX_MB (2048 by default); `fileName` names it in the run. 409 for a tenant of another cost source, or while a run is queued or running. */
        post: operations["UploadTenantCostFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/costs/daily": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Daily amortised cost of a chart scope (every day of the range), optionally grouped, with the event markers visible on that chart. from/to default to the last 30 days; at most 400 days. */
        get: operations["GetTenantDailyCosts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/costs/forecast": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Expected daily cost of a chart scope (and of each of its groups) from the day after its last settled day up to `to`, with an 80% interval, the current month's projected total and the period's, and the forecast's backtested accuracy. Below 28 settled days of usage cost: 422 not-enough-history. */
        get: operations["GetTenantCostForecast"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Event markers of the tenant, newest occurredAt first (id last).
         * @description `from` and `to` are inclusive; `from` after `to` is a 400.
         */
        get: operations["PublicGetTenantEvents"];
        put?: never;
        /**
         * Creates an event marker. Needs Editor or above.
         * @description For CI/CD deploy markers. Send an Idempotency-Key so that a retried request never creates a second marker. A replayed answer carries `Idempotent-Replayed: true`.
         */
        post: operations["PublicCreateTenantEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/events/{eventId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One event marker. */
        get: operations["PublicGetTenantEvent"];
        put?: never;
        post?: never;
        /**
         * Deletes an event marker at once and for good. The creator or a tenancy Admin.
         * @description An Editor deletes the markers it created; an Admin of the tenancy (or an owner) any marker, as for changes. The audit log records the deletion.
         */
        delete: operations["PublicDeleteTenantEvent"];
        options?: never;
        head?: never;
        /**
         * Changes an event marker. Needs Editor or above.
         * @description An Editor changes the markers it created; an Admin of the tenancy (or an owner) any marker, as for deletion. An absent or null field is left unchanged; `description: ""` clears the description; `clearTag: true` removes the tag filter (not with tagKey or tagValue). The result must keep tagKey and tagValue together.
         */
        patch: operations["PublicUpdateTenantEvent"];
        trace?: never;
    };
    "/tenants/{tenantId}/events/{eventId}/impact": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Cost before and after an event marker, on the marker's own chart scope.
         * @description Before: the `days` whole UTC days before the day of the marker; after: `days` days from that day on (default 7, 1 to 90). The scope is the marker's chart: the whole tenant for a universal marker, the resources whose own tags match a tagged one (key case-insensitive, value exact). Every charge category counts, in the billing currency. The change compares daily averages over the settled days each side holds (`daysBefore`, `daysAfter`); `changePercent` is null before 2 settled days after the marker, and when nothing was spent before. The anomalies are those raised on the scope in both windows (every scope of the tenant for a universal marker, the matching resources for a tagged one).
         */
        get: operations["GetEventCostImpact"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/events/visible": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The event markers on one cost chart, oldest first, at most 1,000.
         * @description Universal markers (no tag) are on every chart; tagged ones on broad charts (tenant, subscription), and on a resource or resource-group chart only when that resource's or group's own tags hold the same key (case-insensitive) with the same value (exact). An unknown subscription, group or resource is a 404; a group name in several subscriptions is a 409 listing them (choose with subscriptionId). `from` and `to` are inclusive and default to the 30 days up to now. Every answer carries an `ETag`; sent back in `If-None-Match`, it gets a 304 without a body while the chart's markers are unchanged, so an open chart can ask every few seconds at the cost of one indexed read (with explicit `from` and `to`: a default `to` moves with the clock, so its ETag does too).
         */
        get: operations["GetVisibleTenantEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/resource-groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Resource groups of the tenant, by name, then subscription. Extension: `tag` filters by tags. */
        get: operations["PublicListTenantResourceGroups"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/resource-groups/{resourceGroupName}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One resource group by name, case-insensitively. When several subscriptions hold the name: 409 listing them (subscriptionIds), unless subscriptionId chooses. */
        get: operations["PublicGetTenantResourceGroup"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/resource-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tenant's resource types with how many resources each has, by type (types differing only in case are one): the choices of a type filter.
         * @description An addition to the specification.
         */
        get: operations["ListTenantResourceTypes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/resources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Resources of the tenant, by name.
         * @description Extensions: `tag` (by tags), `search` (a part of the name) and `sort`. The exact filters combine with them; a bad value of any is a 400 naming it.
         */
        get: operations["PublicListTenantResources"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/resources/{resourceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One resource. */
        get: operations["PublicGetTenantResource"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/snapshots": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Snapshot runs of the tenant, newest first. */
        get: operations["PublicListTenantSnapshots"];
        put?: never;
        /** Queues a snapshot collection run: 202 with Location and the run. deepHistory=true collects the 30 days before today; otherwise from the last successful run (at least the last 3 days). 409 with activeRunId while one is queued or running. */
        post: operations["PublicTriggerTenantSnapshot"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/snapshots/{snapshotId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One snapshot run, to follow its progress. */
        get: operations["GetTenantSnapshot"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Subscriptions of the tenant, by display name. */
        get: operations["PublicListTenantSubscriptions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/subscriptions/{subscriptionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One subscription. */
        get: operations["PublicGetTenantSubscription"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tag keys of the tenant's resources with their distinct values.
         * @description From the resources as the latest snapshot saw them: up to 200 keys, most used first, each with up to 50 values (most used first); `key` asks for one key (any letter case) with up to 1,000 values. Keys differing only in letter case are one key, as they are for the tag filter of an event marker; values are exact. `valuesTruncated` and `keysTruncated` say when a list was cut.
         */
        get: operations["ListTenantTags"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Users of the organisation, by e-mail address (id last). Needs an owner. */
        get: operations["PublicListUsers"];
        put?: never;
        /**
         * Invites a user by e-mail (202). Needs an owner.
         * @description Creates the user as Invited and sends an e-mail with a single-use link that works for 7 days (`/invite/{token}` on COSTWATCH_PUBLIC_URL), where the user chooses a name and a password. The e-mail goes through an outbox: an SMTP outage delays it and never fails this request. The address is compared case-insensitively: an address that is already a member is a 409.
         */
        post: operations["PublicInviteUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One user. Needs an owner. */
        get: operations["PublicGetUser"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Changes display name, owner status or enabled state. Needs an owner.
         * @description An absent or null field is left unchanged. The last active owner can be neither demoted nor disabled (409); concurrent requests are serialised, so two of them never remove the last two owners.
         */
        patch: operations["PublicUpdateUser"];
        trace?: never;
    };
    "/users/{userId}/invitation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sends an invited user a new invitation link (202). Needs an owner.
         * @description The link sent before stops working. A user who already accepted (or is disabled) is a 409.
         */
        post: operations["ResendUserInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description Which events go to which channels. */
        AlertRule: {
            channelIds: string[];
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            createdAt: string;
            /** @description The hour digests go out, in timeZone (default 8). */
            digestHour: number;
            /**
             * @description Weekly: the day digests go out (default Monday).
             * @enum {string}
             */
            digestWeekday: "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday" | "Sunday";
            enabled: boolean;
            /**
             * @description Immediate: each event as the analysis finds it; Daily or Weekly: a digest of the period at digestHour.
             * @enum {string}
             */
            frequency: "Immediate" | "Daily" | "Weekly";
            /** Format: uuid */
            id: string;
            name: string;
            scope: components["schemas"]["AlertRuleScope"];
            /** @description Digest: sent even when the period had nothing to report. */
            sendWhenQuiet: boolean;
            /** @description An IANA time zone (default UTC). */
            timeZone: string;
            trigger: components["schemas"]["AlertRuleTrigger"];
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            updatedAt: string;
        };
        /** @description Which of the last 30 days' anomalies (by day raised) would have alerted, one per incident, decided as the alert run decides. Only AnomalyRaised rules alert about anomalies: any other trigger previews none. Only tenancies the caller sees are previewed. */
        AlertRulePreview: {
            /** @description How many alerts the rule would have sent. */
            count: number;
            /** Format: date */
            from: string;
            /** @description Largest impact first. */
            items: components["schemas"]["AlertRulePreviewItem"][];
            /** Format: date */
            to: string;
        };
        /** @description An alert the rule would have sent: the anomaly it leads with. */
        AlertRulePreviewItem: {
            /** Format: uuid */
            anomalyId: string;
            currency: string;
            /** @description The episode's total impact. */
            impact: number;
            impactPercent: number;
            /** Format: uuid */
            incidentId: string;
            /** @description The anomalies of its incident that matched: one alert says them all. */
            matchedInIncident: number;
            scope: {
                /** @description Tenant, Subscription, ResourceGroup, Resource or Service. */
                kind: string;
                /** @description The scope as people name it. */
                name: string;
            };
            /** @enum {string} */
            severity: "High" | "Medium" | "Low";
            /** Format: date */
            start: string;
            /** Format: uuid */
            tenancyId: string;
        };
        AlertRuleScope: {
            /** @description A resource group name (any subscription). */
            resourceGroup?: string | null;
            /** @description A service name (meter category), e.g. "Virtual Machines". */
            service?: string | null;
            /** @description Tag filters, all of which must hold, with the markers' semantics: the key compared without letter case, the value exactly. An anomaly matches when its scope (resource, resource group) carries the tags. */
            tags?: {
                key: string;
                value: string;
            }[];
            tenancyIds: string[] | null;
        };
        /** @description AnomalyRaised {minImpact, minImpactPercent, combine, minSeverity}; BudgetThreshold {budgetIds}; InsightFound {minMonthlySavings}; Digest {} (the period's top anomalies, budgets at risk and new insights); PredictionExceeded {minExcess, minExcessPercent} (both must hold; Immediate only). Fields of another type are refused. */
        AlertRuleTrigger: {
            /** @description BudgetThreshold: the budgets watched (empty: all in scope). */
            budgetIds?: string[];
            /**
             * @description AnomalyRaised: both thresholds (`all`) or either (`any`, the default) must hold.
             * @enum {string}
             */
            combine?: "all" | "any";
            /** @description PredictionExceeded: the observed change in monthly cost exceeds the marker's prediction by at least this much per month, in its currency. */
            minExcess?: number | null;
            /** @description PredictionExceeded: the excess is at least this percent of the predicted change (absolute). */
            minExcessPercent?: number | null;
            /** @description AnomalyRaised: the episode's total impact, in its currency, at least this. */
            minImpact?: number | null;
            /** @description AnomalyRaised: the impact against the expected spend, in percent, at least this. */
            minImpactPercent?: number | null;
            /** @description InsightFound: estimated monthly savings at least this. */
            minMonthlySavings?: number | null;
            minSeverity?: ("High" | "Medium" | "Low") | null;
            /** @enum {string} */
            type: "AnomalyRaised" | "BudgetThreshold" | "InsightFound" | "Digest" | "PredictionExceeded";
        };
        /**
         * @description A day whose cost departs from its expected cost, on one scope. The expected cost is the median of the same weekday over the previous 8 weeks of cleaned history; a day is an anomaly when its robust score is at least 4 and the change is at least the minimum impact (25 in the billing currency) and 20% of the expected cost (all configurable). A run of anomalous days, or a new level, raises one anomaly on its first day. Severity grows with the impact in units of the minimum impact (COSTWATCH_ANOMALY_MIN_IMPACT, 25 by default): High from 10 times the minimum with a change of at least 50% of the expected cost, Medium from 3 times the minimum, Low below. Newest dateRaised first in lists. Extensions: episode, incidentId, incidentSize, feedback (with feedbackAt and feedbackBy) and likelyCause, the newest Deployment marker among relatedEvents on or before the episode's start.
         * @example {
         *       "id": "0193a8f2-7c4e-7a10-9d2b-3f5e6a7b8c9d",
         *       "tenancyId": "0193a8f0-1111-7222-8333-444455556666",
         *       "scope": {
         *         "kind": "ResourceGroup",
         *         "subscriptionId": "11111111-aaaa-4aaa-8aaa-111111111111",
         *         "resourceGroupName": "web-prod",
         *         "resourceId": null,
         *         "serviceName": null
         *       },
         *       "dateRaised": "2026-03-04",
         *       "severity": "High",
         *       "status": "Active",
         *       "expectedCost": 120.5,
         *       "actualCost": 480.25,
         *       "impact": 359.75,
         *       "impactPercent": 298.55,
         *       "currency": "EUR",
         *       "description": "Cost of resource group web-prod was 480.25 EUR against 120.50 EUR expected (+298.55%), driven by resource vm-web-3.",
         *       "drivers": [
         *         {
         *           "scope": {
         *             "kind": "Resource",
         *             "subscriptionId": "11111111-aaaa-4aaa-8aaa-111111111111",
         *             "resourceGroupName": "web-prod",
         *             "resourceId": "0193a8f1-2222-7333-8444-555566667777",
         *             "serviceName": null
         *           },
         *           "label": "vm-web-3",
         *           "expectedCost": 40,
         *           "actualCost": 395.1,
         *           "change": 355.1,
         *           "share": 0.987
         *         }
         *       ],
         *       "relatedEvents": [],
         *       "detectedAt": "2026-03-05T02:10:00.000Z",
         *       "statusChangedAt": null,
         *       "statusChangedBy": null,
         *       "episode": {
         *         "start": "2026-03-04",
         *         "end": "2026-03-05",
         *         "ongoing": false,
         *         "lastDay": "2026-03-05",
         *         "days": 2,
         *         "expectedCost": 241,
         *         "actualCost": 830.5,
         *         "totalImpact": 589.5,
         *         "totalImpactPercent": 244.61,
         *         "maxImpact": 359.75
         *       },
         *       "incidentId": "0193a8f2-7c4e-7a10-9d2b-3f5e6a7b8c9d",
         *       "incidentSize": 3,
         *       "feedback": null,
         *       "feedbackAt": null,
         *       "feedbackBy": null,
         *       "likelyCause": null
         *     }
         */
        Anomaly: {
            /** @description An amount in the billing currency named by `currency`. */
            actualCost: number;
            /** @description ISO 4217 code. */
            currency: string;
            /**
             * Format: date
             * @description YYYY-MM-DD (UTC day).
             */
            dateRaised: string;
            /** @description One sentence; names the child scope that drove it, when one did. Subscriptions by their display name. */
            description: string;
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            detectedAt: string;
            /** @description The child scopes (subscriptions of a tenant, groups of a subscription, resources of a group or of a service) that moved the same way on that day, largest share of the change first, at most 5. Empty for Resource. */
            drivers: {
                /** @description An amount in the billing currency named by `currency`. */
                actualCost: number;
                /** @description An amount in the billing currency named by `currency`. */
                change: number;
                /** @description An amount in the billing currency named by `currency`. */
                expectedCost: number;
                /** @description The child scope as people name it (subscription, group or resource name). */
                label: string;
                /** @description What the cost belongs to. Subscription: subscriptionId. ResourceGroup: subscriptionId and resourceGroupName. Resource: resourceId (with its subscription and group). Service: serviceName, across the tenant. Tenant: the fields are null. */
                scope: {
                    /** @enum {string} */
                    kind: "Tenant" | "Subscription" | "ResourceGroup" | "Resource" | "Service";
                    resourceGroupName: string | null;
                    /** Format: uuid */
                    resourceId: string | null;
                    serviceName: string | null;
                    subscriptionId: string | null;
                };
                /** @description The child's change as a share of the anomaly's impact (1 = all of it). */
                share: number;
            }[];
            /** @description Extension: the run of anomalous days the anomaly stands for, like the Impact of AWS Cost Anomaly Detection. Severity follows totalImpact. */
            episode: {
                /** @description An amount in the billing currency named by `currency`. */
                actualCost: number;
                /** @description Days from start to lastDay, both included. */
                days: number;
                /**
                 * Format: date
                 * @description The last anomalous day; null while the episode goes on.
                 */
                end: string | null;
                /** @description An amount in the billing currency named by `currency`. */
                expectedCost: number;
                /**
                 * Format: date
                 * @description YYYY-MM-DD (UTC day).
                 */
                lastDay: string;
                /** @description The impact of the episode's largest day (signed). */
                maxImpact: number;
                /** @description The episode reaches the newest settled day: it may go on. */
                ongoing: boolean;
                /**
                 * Format: date
                 * @description YYYY-MM-DD (UTC day).
                 */
                start: string;
                /** @description actualCost - expectedCost over the episode. */
                totalImpact: number;
                /** @description totalImpact in percent of expectedCost (100 when 0). */
                totalImpactPercent: number;
            };
            /** @description An amount in the billing currency named by `currency`. */
            expectedCost: number;
            feedback: ("Expected" | "NotAnAnomaly" | "Confirmed") | null;
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            feedbackAt: string | null;
            /** @description Who did something: an API key, a user of the web interface, or the service itself. */
            feedbackBy: {
                id: string | null;
                name: string | null;
                /** @enum {string} */
                type: "ApiKey" | "User" | "System";
            } | null;
            /** Format: uuid */
            id: string;
            /** @description actualCost - expectedCost: positive for a spike, negative for a drop. */
            impact: number;
            /** @description impact in percent of expectedCost (100 when nothing was expected). */
            impactPercent: number;
            /**
             * Format: uuid
             * @description Extension: the anomalies one root cause explains share an incident, headed by the broadest scope that says it best; incidentId is the id of that head anomaly (its own id when it heads the incident). A parent's episode joins a descendant's when the descendant drove at least 10% of the parent's change on its first day (through children without an episode of their own) and the two start within a day of each other (a Service's children are its resources). The head is the broadest scope (Tenant, Subscription, ResourceGroup, Service, Resource), then the largest total impact. Stable over re-runs of the same costs.
             */
            incidentId: string;
            /** @description Extension: how many anomalies the incident holds (1 for an anomaly alone). */
            incidentSize: number;
            likelyCause: components["schemas"]["Event"] | null;
            /** @description The tenant's event markers from 3 days before dateRaised to the end of that day that are drawn on the scope's cost chart (universal markers everywhere; tagged ones on tenant, subscription and service scopes, and on a resource or group whose own tags match), oldest first. */
            relatedEvents: components["schemas"]["Event"][];
            /** @description What the cost belongs to. Subscription: subscriptionId. ResourceGroup: subscriptionId and resourceGroupName. Resource: resourceId (with its subscription and group). Service: serviceName, across the tenant. Tenant: the fields are null. */
            scope: {
                /** @enum {string} */
                kind: "Tenant" | "Subscription" | "ResourceGroup" | "Resource" | "Service";
                resourceGroupName: string | null;
                /** Format: uuid */
                resourceId: string | null;
                serviceName: string | null;
                subscriptionId: string | null;
            };
            /**
             * @description High, Medium or Low. See the description of Anomaly.
             * @enum {string}
             */
            severity: "High" | "Medium" | "Low";
            /** @enum {string} */
            status: "Active" | "Acknowledged" | "Resolved";
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            statusChangedAt: string | null;
            /** @description Who did something: an API key, a user of the web interface, or the service itself. */
            statusChangedBy: {
                id: string | null;
                name: string | null;
                /** @enum {string} */
                type: "ApiKey" | "User" | "System";
            } | null;
            /** Format: uuid */
            tenancyId: string;
        };
        /**
         * @description Extension: the people's feedback on a tenancy's anomalies. confirmed / (confirmed + notAnAnomaly) is the precision detection has in use.
         * @example {
         *       "tenantId": "0193a8f0-1111-7222-8333-444455556666",
         *       "anomalies": 40,
         *       "expected": 3,
         *       "notAnAnomaly": 2,
         *       "confirmed": 9
         *     }
         */
        AnomalyFeedbackCounts: {
            /** @description The tenancy's anomalies, with feedback or without. */
            anomalies: number;
            /** @description Anomalies with feedback Confirmed. */
            confirmed: number;
            /** @description Anomalies with feedback Expected. */
            expected: number;
            /** @description Anomalies with feedback NotAnAnomaly: false alarms. */
            notAnAnomaly: number;
            /** Format: uuid */
            tenantId: string;
        };
        Budget: {
            /** @description In the budget’s currency. */
            amount: number | null;
            /**
             * @description Effective (amortised, the default) or Billed. Costs are collected amortised: until a cost source records billed cost, Billed reads the same costs.
             * @enum {string}
             */
            costBasis: "Effective" | "Billed";
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            createdAt: string;
            /** @description ISO 4217 code. */
            currency: string;
            /** Format: uuid */
            id: string;
            name: string;
            /** @enum {string} */
            period: "Monthly" | "Quarterly" | "Annually" | "Custom";
            periods: {
                /** @description In the budget’s currency. */
                amount: number;
                /**
                 * Format: date
                 * @description YYYY-MM-DD (UTC day).
                 */
                from: string;
                /**
                 * Format: date
                 * @description YYYY-MM-DD (UTC day).
                 */
                to: string;
            }[] | null;
            scope: components["schemas"]["BudgetScope"];
            /**
             * Format: date
             * @description YYYY-MM-DD (UTC day).
             */
            startDate: string;
            status: components["schemas"]["BudgetStatus"] | null;
            thresholds: components["schemas"]["BudgetThreshold"][];
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            updatedAt: string;
        };
        BudgetScope: {
            resourceGroup?: string | null;
            service?: string | null;
            /** @description Only the costs of resources carrying every tag, with the markers' semantics (the key without letter case, the value exactly). */
            tags?: {
                key: string;
                value: string;
            }[];
            tenancyIds: string[] | null;
        };
        /** @description The current period’s figures as of today (a budget’s status is null when it has no period today). */
        BudgetStatus: {
            /** @description The spend from the period’s first day to the last day with costs. */
            actual: number;
            amount: number;
            /**
             * Format: date
             * @description The day the spend, actual then forecast, reaches the amount at the current run-rate; or null.
             */
            breachDate: string | null;
            forecast: {
                expected: number;
                lower: number;
                upper: number;
            };
            /** @description actual against amount, in percent. */
            percent: number;
            /**
             * Format: date
             * @description YYYY-MM-DD (UTC day).
             */
            periodFrom: string;
            /**
             * Format: date
             * @description YYYY-MM-DD (UTC day).
             */
            periodTo: string;
            thresholds: {
                /** @enum {string} */
                basis: "Actual" | "Forecast";
                /** @enum {string} */
                kind: "Percent" | "Amount";
                /**
                 * Format: date
                 * @description The day it alarmed in this period.
                 */
                since: string | null;
                /** @enum {string} */
                state: "Ok" | "Alarm";
                value: number;
            }[];
        };
        BudgetThreshold: {
            /**
             * @description Actual: the spend so far crosses it; Forecast: the forecast at the period’s end does.
             * @enum {string}
             */
            basis: "Actual" | "Forecast";
            /**
             * @description Percent of the period’s amount, or an amount.
             * @enum {string}
             */
            kind: "Percent" | "Amount";
            value: number;
        };
        /** @description Extension: the expected daily cost of a chart scope's series from the day after its last settled day up to `to`, with an 80% interval, each series' month-end and period totals, and the accuracy of the forecast in a backtest. */
        CostForecast: {
            /** @description The scope's total usage forecast, backtested over the last 4 weeks of its history. */
            accuracy: {
                /** @description The last days of the history forecast from the days before them (0: too little history). */
                backtestDays: number;
                /** @description The share of the backtest's days inside their 80% interval (0 to 1). */
                coverage80: number | null;
                /** @description Mean absolute error over the backtest against the seasonal-naive forecast's (the same weekday of the week before the backtest): below 1 is better than seasonal naive. Null without enough history. */
                mase: number | null;
            };
            /** @description ISO 4217 code. */
            currency: string;
            /**
             * Format: date
             * @description The first day forecast: the day after historyTo.
             */
            from: string;
            groupBy: string | null;
            /**
             * Format: date
             * @description YYYY-MM-DD (UTC day).
             */
            historyFrom: string;
            /**
             * Format: date
             * @description The last settled day: the history ends there.
             */
            historyTo: string;
            /**
             * @description Weekly seasonal factors (each weekday against its centred 7-day mean), a Theil-Sen trend on the deseasonalised daily usage of the last 84 settled days, an 80% interval from the fit's residual quantiles widened with the horizon; purchases, taxes and credits added on the day of the month they recur. See docs/forecast.md.
             * @enum {string}
             */
            method: "TheilSenWeekly";
            scope: string;
            series: {
                /** @description The group's key as on the chart ("" ungrouped). */
                key: string;
                /** @description The current month's projected total: its settled days' actual cost (every category) and the forecast of the days after historyTo. */
                monthEnd: {
                    /**
                     * Format: date
                     * @description YYYY-MM-DD (UTC day).
                     */
                    date: string;
                    /** @description An amount in the billing currency named by `currency`. */
                    expected: number;
                    /** @description An amount in the billing currency named by `currency`. */
                    lower: number;
                    /** @description An amount in the billing currency named by `currency`. */
                    upper: number;
                };
                name: string;
                periodTotal: {
                    /** @description An amount in the billing currency named by `currency`. */
                    expected: number;
                    /**
                     * Format: date
                     * @description YYYY-MM-DD (UTC day).
                     */
                    from: string;
                    /** @description An amount in the billing currency named by `currency`. */
                    lower: number;
                    /**
                     * Format: date
                     * @description YYYY-MM-DD (UTC day).
                     */
                    to: string;
                    /** @description An amount in the billing currency named by `currency`. */
                    upper: number;
                };
                /** @description Every day from `from` to `to`. */
                points: {
                    /**
                     * Format: date
                     * @description YYYY-MM-DD (UTC day).
                     */
                    date: string;
                    /** @description An amount in the billing currency named by `currency`. */
                    expected: number;
                    /** @description An amount in the billing currency named by `currency`. */
                    lower: number;
                    /** @description An amount in the billing currency named by `currency`. */
                    upper: number;
                }[];
            }[];
            /**
             * Format: date
             * @description YYYY-MM-DD (UTC day).
             */
            to: string;
        };
        /** @description Daily amortised cost of one chart scope, with the event markers drawn on it. Every charge category counts (usage, purchases, taxes, credits, adjustments and corrections), as on the bill. */
        CostSeries: {
            /** @description ISO 4217 code. */
            currency: string;
            /**
             * Format: date
             * @description YYYY-MM-DD (UTC day).
             */
            from: string;
            groupBy: string | null;
            /** @description With groupBy: the groups, largest cost first; past 50, the rest are summed into one last group with key "(other)". Costs without the grouping (no resource group, no such tag) are in the group with key "". */
            groups?: {
                /** @description An amount in the billing currency named by `currency`. */
                cost: number;
                key: string;
                label: string;
                points: {
                    /** @description An amount in the billing currency named by `currency`. */
                    cost: number;
                    /**
                     * Format: date
                     * @description YYYY-MM-DD (UTC day).
                     */
                    date: string;
                }[];
            }[];
            /** @description The event markers visible on this chart, oldest first. */
            markers: components["schemas"]["Event"][];
            /** @description The scope's total per UTC day: every day of the range, 0 where nothing was billed. */
            points: {
                /** @description An amount in the billing currency named by `currency`. */
                cost: number;
                /**
                 * Format: date
                 * @description YYYY-MM-DD (UTC day).
                 */
                date: string;
            }[];
            scope: string;
            /**
             * Format: date
             * @description Extension: the last day every recently active source of the tenant's costs has settled (UTC day). Later days are preliminary: still being restated (a collection's newest days) or not yet covered by every source, and anomaly detection does not judge them. Null when no source has recorded what it settled.
             */
            settledThrough: string | null;
            /**
             * Format: date
             * @description YYYY-MM-DD (UTC day).
             */
            to: string;
        };
        CreateAlertRuleRequest: {
            channelIds: string[];
            /** @description The hour digests go out, in timeZone (default 8). */
            digestHour?: number;
            /**
             * @description Weekly: the day digests go out (default Monday).
             * @enum {string}
             */
            digestWeekday?: "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday" | "Sunday";
            enabled?: boolean;
            /**
             * @description Immediate: each event as the analysis finds it; Daily or Weekly: a digest of the period at digestHour.
             * @enum {string}
             */
            frequency?: "Immediate" | "Daily" | "Weekly";
            name: string;
            scope: components["schemas"]["AlertRuleScope"];
            /** @description Digest: sent even when the period had nothing to report. */
            sendWhenQuiet?: boolean;
            /** @description An IANA time zone (default UTC). */
            timeZone?: string;
            trigger: components["schemas"]["AlertRuleTrigger"];
        };
        /** @description `period: Custom` takes `periods` instead of `amount`; the others take `amount`. */
        CreateBudgetRequest: {
            /** @description In the budget’s currency. */
            amount?: number;
            /** @enum {string} */
            costBasis?: "Effective" | "Billed";
            /** @description ISO 4217 code. */
            currency: string;
            name: string;
            /** @enum {string} */
            period: "Monthly" | "Quarterly" | "Annually" | "Custom";
            periods?: {
                /** @description In the budget’s currency. */
                amount: number;
                /**
                 * Format: date
                 * @description YYYY-MM-DD (UTC day).
                 */
                from: string;
                /**
                 * Format: date
                 * @description YYYY-MM-DD (UTC day).
                 */
                to: string;
            }[];
            scope: components["schemas"]["BudgetScope"];
            /**
             * Format: date
             * @description YYYY-MM-DD (UTC day).
             */
            startDate?: string;
            thresholds?: components["schemas"]["BudgetThreshold"][];
        };
        CreatedNotificationChannel: {
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            createdAt: string;
            /** @description Why the channel was disabled (a 410 answer, failures on every attempt); null when enabled or disabled by a person. */
            disabledReason: string | null;
            emails: string[] | null;
            enabled: boolean;
            /** @description Webhook channels: a signing secret is set (it is never returned). */
            hasSecret: boolean;
            /** Format: uuid */
            id: string;
            name: string;
            /**
             * Format: date-time
             * @description Webhook channels after a rotation: until when the previous secret signs beside the new one.
             */
            previousSecretUntil: string | null;
            /** @description Webhook channels: the signing secret (`whsec_` and base64), shown this once. Verify `webhook-signature` with it. */
            secret?: string;
            /** @enum {string} */
            type: "Email" | "Slack" | "Teams" | "Webhook";
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            updatedAt: string;
            /** @description The host the URL points to (the URL itself is never returned). */
            urlHost: string | null;
            userIds: string[] | null;
        };
        /** @description Slack, Teams and Webhook take `url`; Email takes `emails` and/or `userIds` (at least one recipient). */
        CreateNotificationChannelRequest: {
            /** @description Email channels: addresses to send to. */
            emails?: string[];
            name: string;
            /** @enum {string} */
            type: "Email" | "Slack" | "Teams" | "Webhook";
            /** @description Slack: an incoming-webhook URL; Teams: a Workflows webhook URL; Webhook: any https URL. Never returned (it is a credential). http, and addresses that are not public, only within COSTWATCH_OUTBOUND_ALLOW. */
            url?: string;
            /** @description Email channels: users of the organisation, each at the address of their account. */
            userIds?: string[];
        };
        /** @description tagKey and tagValue come together or not at all; without them the marker is universal. */
        CreatePublicEventRequest: {
            /** @enum {string} */
            category: "Deployment" | "Launch" | "Campaign" | "Configuration" | "Incident" | "Other";
            description?: string | null;
            /**
             * Format: date-time
             * @description When it happened; any RFC 3339 offset, stored in UTC.
             */
            occurredAt: string;
            prediction?: components["schemas"]["MarkerPredictionInput"];
            tagKey?: string | null;
            tagValue?: string | null;
            /** @description 1 to 200 characters after trimming. */
            title: string;
        };
        CreateReportRequest: {
            description?: string | null;
            /**
             * @description CostByDimension: Cost by subscription, resource group, service, resource or the values of a tag over a period, largest first (by resource: in resource id order, unless `top` asks for the largest). TopResources: The `count` most expensive resources (default 20, at most 1,000) over a period, ranked. AnomalySummary: The anomalies raised in a period, by status (Active, Acknowledged, Resolved) then severity (High, Medium, Low), newest first: tenancy, scope, day raised, expected and actual cost, and impact (actual - expected). InsightSavings: The open insights (Active, or snoozed until the run at the latest) on the day the run was requested, by category, the category with the largest estimated monthly savings first, and within it the largest saving first: resource, group, subscription, tenancy, severity, the recommendation and its monthly saving. No parameters.
             * @enum {string}
             */
            kind: "CostByDimension" | "TopResources" | "AnomalySummary" | "InsightSavings";
            name: string;
            /** @description The kind's parameters. CostByDimension: `dimension` (Subscription, ResourceGroup, Service, Resource, Tag), `tagKey` (with Tag), `top` (1..1000, optional), `period` (MonthToDate, LastMonth, Last30Days, Last90Days, Custom with `from` and `to`). TopResources: `count` (1..1000, default 20) and the period. AnomalySummary: the period. InsightSavings: none. */
            parameters?: {
                [key: string]: unknown;
            };
            schedule?: components["schemas"]["ReportSchedule"] | null;
            tenancyIds: string[] | null;
        };
        CreateTenancyRequest: {
            /** @description Needed by ServicePrincipalCertificate. */
            certificateThumbprint?: string | null;
            /** @description Needed by both service-principal types. */
            clientId?: string | null;
            /** @description Needed by ServicePrincipalSecret. Encrypted at rest; never returned, logged or exported. */
            clientSecret?: string | null;
            /** @description The directory (tenant) id at the cloud provider: a GUID or a verified domain name. Required for the AzureConnector source, refused for the others. */
            cloudTenantId?: string;
            /**
             * @description Where the costs come from (an addition to the contract): AzureConnector (the default), FocusExport (pulled from `location`) or FocusUpload (pushed to `POST /tenants/{id}/cost-files`). File sources need no cloud credentials.
             * @enum {string}
             */
            costSource?: "AzureConnector" | "FocusExport" | "FocusUpload";
            /**
             * @description Required for the AzureConnector source, refused for the others.
             * @enum {string}
             */
            credentialType?: "ServicePrincipalSecret" | "ServicePrincipalCertificate" | "ManagedIdentity";
            location?: {
                /** @description S3: with secretAccessKey; without a key pair, the server's own credential chain, where the operator allows it. */
                accessKeyId?: string | null;
                /** @description S3: the bucket. */
                bucket?: string | null;
                /** @description AzureBlob, signing in with a service principal: the app's client id, a GUID. */
                clientId?: string | null;
                /** @description AzureBlob, signing in with a service principal: a client secret of the app, which needs Storage Blob Data Reader on the container; sealed at rest, never returned. */
                clientSecret?: string | null;
                /** @description AzureBlob: `https://<account>.blob.core.windows.net/<container>`. */
                containerUrl?: string | null;
                /** @description BigQuery: the dataset of the billing export. */
                dataset?: string | null;
                /** @description S3: an S3-compatible store (MinIO, R2), addressed path-style; null for AWS. */
                endpoint?: string | null;
                /** @description The export's own folder. S3: `<S3 path prefix>/<export name>`, under which AWS writes `data/BILLING_PERIOD=YYYY-MM/…` and `metadata/BILLING_PERIOD=YYYY-MM/<export name>-Manifest.json`. AzureBlob: the export's root folder path and name, under which each run writes `<YYYYMMDD-YYYYMMDD>/<run id>/` with a `manifest.json`. Not used with BigQuery. */
                prefix?: string;
                /** @description BigQuery: the project holding the dataset (and running the queries). */
                projectId?: string | null;
                /** @description S3: e.g. `eu-west-1`. */
                region?: string | null;
                /** @description AzureBlob: a SAS with read and list on the container (without its `?`); sealed at rest, never returned. Or sign in with a service principal instead: tenantId, clientId and clientSecret. */
                sasToken?: string | null;
                /** @description S3: sealed at rest; never returned, logged or exported. */
                secretAccessKey?: string | null;
                /** @description BigQuery: a service account's JSON key, with BigQuery Data Viewer on the table and Job User on the project; sealed at rest, never returned. */
                serviceAccountKey?: string | null;
                /** @description BigQuery: the FOCUS export table, `gcp_billing_export_focus_<BILLING_ACCOUNT_ID>`. */
                table?: string | null;
                /** @description AzureBlob, signing in with a service principal: the directory (tenant) id of the app, a GUID or a domain name such as contoso.onmicrosoft.com. */
                tenantId?: string | null;
                /** @enum {string} */
                type: "S3" | "AzureBlob" | "BigQuery";
            };
            name: string;
        };
        /** @description An event marker drawn on cost charts. */
        Event: {
            /** @enum {string} */
            category: "Deployment" | "Launch" | "Campaign" | "Configuration" | "Incident" | "Other";
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            createdAt: string;
            /** @description Who did something: an API key, a user of the web interface, or the service itself. */
            createdBy: {
                id: string | null;
                name: string | null;
                /** @enum {string} */
                type: "ApiKey" | "User" | "System";
            };
            description: string | null;
            /** Format: uuid */
            id: string;
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            occurredAt: string;
            prediction?: components["schemas"]["MarkerPrediction"];
            tagKey: string | null;
            tagValue: string | null;
            /** Format: uuid */
            tenantId: string;
            title: string;
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            updatedAt: string;
        };
        /** @description Cost on the marker's own chart scope before and after it: the N whole UTC days before the marker's day, and N days from the marker's day on. Every charge category counts. `before.cost` and `after.cost` are the sums of the days collected so far; the change compares daily averages over the settled days each side holds, so that three days after a marker are not set against seven before it. */
        EventCostImpact: {
            after: {
                /** @description An amount in the billing currency named by `currency`. */
                cost: number;
                /** @description Extension: the average cost of the days of the window the tenant holds, settled (see daysBefore and daysAfter); null when it holds none. */
                dailyAverage: number | null;
                /**
                 * Format: date
                 * @description YYYY-MM-DD (UTC day).
                 */
                from: string;
                /**
                 * Format: date
                 * @description YYYY-MM-DD (UTC day).
                 */
                to: string;
            };
            /** @description Anomalies on the scope raised from before.from to after.to, newest first, at most 100. */
            anomalies: components["schemas"]["Anomaly"][];
            before: {
                /** @description An amount in the billing currency named by `currency`. */
                cost: number;
                /** @description Extension: the average cost of the days of the window the tenant holds, settled (see daysBefore and daysAfter); null when it holds none. */
                dailyAverage: number | null;
                /**
                 * Format: date
                 * @description YYYY-MM-DD (UTC day).
                 */
                from: string;
                /**
                 * Format: date
                 * @description YYYY-MM-DD (UTC day).
                 */
                to: string;
            };
            /** @description The change over `days` days at the daily averages: (after.dailyAverage - before.dailyAverage) * days, which is after.cost - before.cost once both windows are over and held in full; 0 while a side holds no day. Like with like: a window still filling in is never compared with a whole one. */
            change: number;
            /** @description dailyChange in percent of before.dailyAverage; null before 2 settled days after the marker (daysAfter), or when nothing was spent before. */
            changePercent: number | null;
            /** @description false while the after window reaches past today (costs still to come). */
            complete: boolean;
            /** @description ISO 4217 code. */
            currency: string;
            /** @description Extension: after.dailyAverage - before.dailyAverage; null when either side holds no day. */
            dailyChange: number | null;
            days: number;
            /** @description Extension: settled days of the after window so far (fewer than `days` while it is not over, 0 on the marker's own day). */
            daysAfter: number;
            /** @description Extension: days of the before window that the averages compare: settled days on which the tenant has costs collected (none before its first day of cost). */
            daysBefore: number;
            /** Format: uuid */
            eventId: string;
            /** @description Extension: the change seen on the marker's scope, to check a prediction against. */
            observed: {
                /** @description Settled days after the marker's day compared (at most 28; the marker's own day is on neither side), against as many days before it holding each weekday as often: the days just before the marker for whole weeks, else the after days moved back by whole weeks. */
                days: number;
                /** @description The observed change in monthly cost, in `currency`: (cost of the days after - cost of the days before) / days x 30.4375 (the mean month). Null while no settled day follows the marker. */
                monthlyDelta: number | null;
            };
            /** @description Extension: the marker's prediction (see the marker's `prediction`); null without one. */
            predicted: {
                /** @description ISO 4217 code. */
                currency: string;
                /** @description The marker's predicted change in monthly cost. */
                monthlyDelta: number;
            } | null;
            /** @description `tenant` for a universal marker; `tag:{key}={value}` for the resources a tagged marker is on. */
            scope: string;
            /** Format: uuid */
            tenantId: string;
        };
        /**
         * @example {
         *       "role": "Editor"
         *     }
         */
        GrantTenancyRoleRequest: {
            /** @enum {string} */
            role: "Admin" | "Editor" | "Viewer";
        };
        /**
         * @description A cost-reduction recommendation about one resource, one per resource and category. `status` is Active, the last action a person took, or AutoResolved (the condition is gone). Largest saving first in lists.
         * @example {
         *       "id": "019a3f0c-5e21-7c4d-9a1b-2f6e8d0c4b11",
         *       "tenancyId": "019a3e11-0b7f-7a52-8e3c-6d1f0a9b2c47",
         *       "resourceId": "019a3e12-44c0-7d1e-b5a2-9c8f7e6d5a30",
         *       "resourceName": "disk-web-0001",
         *       "subscriptionId": "4f1c2a7e-3b9d-4e61-a8c5-0d2b7f9e6c13",
         *       "resourceGroupName": "rg-web-prod",
         *       "category": "OrphanedResource",
         *       "severity": "Low",
         *       "title": "disk-web-0001 is orphaned",
         *       "description": "disk-web-0001 is a managed disk attached to no virtual machine, and costs about USD 19.50 a month.",
         *       "recommendation": "Delete it if nothing needs it (snapshot a disk first if its data may matter).",
         *       "estimatedMonthlySavings": 19.5,
         *       "currency": "USD",
         *       "status": "Snoozed",
         *       "snoozedUntil": "2026-03-15T09:00:00.000Z",
         *       "lastAction": {
         *         "action": "Snoozed",
         *         "at": "2026-03-01T09:00:00.000Z",
         *         "by": {
         *           "type": "ApiKey",
         *           "id": "019a3e10-9f2d-7b3e-8c41-5a6b7c8d9e0f",
         *           "name": "finops"
         *         },
         *         "snoozeDays": 14
         *       },
         *       "detectedAt": "2026-02-28T23:10:04.512Z",
         *       "updatedAt": "2026-03-01T09:00:00.000Z"
         *     }
         */
        Insight: {
            /** @enum {string} */
            category: "OrphanedResource" | "StoppedVm" | "OverProvisioned" | "ScheduleOpportunity" | "ReservedInstanceOpportunity" | "UnusedResource" | "HybridBenefitOpportunity" | "ExpiredResource";
            /** @description ISO 4217 code. */
            currency: string;
            description: string;
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            detectedAt: string;
            /** @description An amount in the billing currency named by `currency`. */
            estimatedMonthlySavings: number;
            /** Format: uuid */
            id: string;
            lastAction: {
                /** @enum {string} */
                action: "NotRelevant" | "AcceptedRisk" | "Implemented" | "FalsePositive" | "Snoozed" | "AutoResolved";
                /**
                 * Format: date-time
                 * @description RFC 3339; returned in UTC with milliseconds.
                 */
                at: string;
                /** @description Who did something: an API key, a user of the web interface, or the service itself. */
                by: {
                    id: string | null;
                    name: string | null;
                    /** @enum {string} */
                    type: "ApiKey" | "User" | "System";
                };
                snoozeDays: number | null;
            } | null;
            recommendation: string;
            resourceGroupName: string | null;
            /** Format: uuid */
            resourceId: string | null;
            resourceName: string | null;
            /** @enum {string} */
            severity: "Critical" | "High" | "Medium" | "Low";
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            snoozedUntil: string | null;
            /** @enum {string} */
            status: "Active" | "NotRelevant" | "AcceptedRisk" | "Implemented" | "FalsePositive" | "Snoozed" | "AutoResolved";
            subscriptionId: string | null;
            /** Format: uuid */
            tenancyId: string;
            title: string;
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            updatedAt: string;
        };
        /**
         * @example {
         *       "email": "jane.doe@example.com",
         *       "displayName": "Jane Doe"
         *     }
         */
        InvitePublicUserRequest: {
            displayName?: string | null;
            /**
             * Format: email
             * @description RFC 5321's limits: at most 254 characters, and at most 64 before the @.
             */
            email: string;
        };
        /** @description Extension: what an estimator predicted the change would cost per month, before it shipped. */
        MarkerPrediction: {
            /** @description The commit the estimate was made for (a SHA). */
            commit: string | null;
            /** @description ISO 4217 code, e.g. USD. */
            currency: string;
            /** @description The predicted change in monthly cost, in `currency` (negative: a saving). */
            monthlyDelta: number;
            /** @description The pull request, an http(s) URL. */
            pullRequestUrl: string | null;
            /** @description The estimator, e.g. `Infracost` (1 to 100 characters after trimming). */
            source: string;
        };
        /** @description Extension: a predicted change in monthly cost (e.g. from Infracost). commit and pullRequestUrl are optional. */
        MarkerPredictionInput: {
            /** @description The commit the estimate was made for (a SHA). */
            commit?: string | null;
            /** @description ISO 4217 code, e.g. USD. */
            currency: string;
            /** @description The predicted change in monthly cost, in `currency` (negative: a saving). */
            monthlyDelta: number;
            /** @description The pull request, an http(s) URL. */
            pullRequestUrl?: string | null;
            /** @description The estimator, e.g. `Infracost` (1 to 100 characters after trimming). */
            source: string;
        };
        /** @description Where alerts go: e-mail, a Slack or Teams channel, or a signed webhook. */
        NotificationChannel: {
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            createdAt: string;
            /** @description Why the channel was disabled (a 410 answer, failures on every attempt); null when enabled or disabled by a person. */
            disabledReason: string | null;
            emails: string[] | null;
            enabled: boolean;
            /** @description Webhook channels: a signing secret is set (it is never returned). */
            hasSecret: boolean;
            /** Format: uuid */
            id: string;
            name: string;
            /**
             * Format: date-time
             * @description Webhook channels after a rotation: until when the previous secret signs beside the new one.
             */
            previousSecretUntil: string | null;
            /** @enum {string} */
            type: "Email" | "Slack" | "Teams" | "Webhook";
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            updatedAt: string;
            /** @description The host the URL points to (the URL itself is never returned). */
            urlHost: string | null;
            userIds: string[] | null;
        };
        NotificationChannelSecret: {
            /**
             * Format: date-time
             * @description Until when the previous secret still signs.
             */
            previousSecretUntil: string;
            /** @description The new signing secret, shown this once. */
            secret: string;
        };
        /** @description One message to one channel, with its attempts. */
        NotificationDelivery: {
            attempts: number;
            /** Format: uuid */
            channelId: string;
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            completedAt: string | null;
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            createdAt: string;
            /** @enum {string} */
            eventType: "anomaly.raised" | "anomaly.updated" | "budget.threshold_crossed" | "insight.found" | "prediction.exceeded" | "digest" | "test";
            /** Format: uuid */
            id: string;
            lastError: string | null;
            lastStatusCode: number | null;
            latencyMs: number | null;
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            nextAttemptAt: string | null;
            /** Format: uuid */
            ruleId: string | null;
            /**
             * @description Accepted: Teams took the request (its flow may still fail later); Failed: every attempt failed, or a 410.
             * @enum {string}
             */
            status: "Pending" | "Succeeded" | "Accepted" | "Failed";
            /** @description Standard Webhooks `webhook-id`: the same on every attempt and redelivery. */
            webhookId: string;
        };
        Organisation: {
            /** Format: uuid */
            id: string;
            name: string;
            plan: string;
            /** @description The tenancies the calling key can see. */
            tenancyCount: number;
        };
        /** @description Absent fields are unchanged. */
        PatchAlertRuleRequest: {
            channelIds?: string[];
            /** @description The hour digests go out, in timeZone (default 8). */
            digestHour?: number;
            /**
             * @description Weekly: the day digests go out (default Monday).
             * @enum {string}
             */
            digestWeekday?: "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday" | "Sunday";
            enabled?: boolean;
            /**
             * @description Immediate: each event as the analysis finds it; Daily or Weekly: a digest of the period at digestHour.
             * @enum {string}
             */
            frequency?: "Immediate" | "Daily" | "Weekly";
            name?: string;
            scope?: components["schemas"]["AlertRuleScope"];
            /** @description Digest: sent even when the period had nothing to report. */
            sendWhenQuiet?: boolean;
            /** @description An IANA time zone (default UTC). */
            timeZone?: string;
            trigger?: components["schemas"]["AlertRuleTrigger"];
        };
        /**
         * @description Any status may move to Acknowledged or Resolved. Repeating the current status is a 200 that changes nothing (statusChangedAt stays). Active is a 400. Extension: feedback, alone or beside status.
         * @example {
         *       "status": "Acknowledged"
         *     }
         * @example {
         *       "feedback": "Expected"
         *     }
         */
        PatchAnomalyRequest: {
            feedback?: ("Expected" | "NotAnAnomaly" | "Confirmed") | null;
            /**
             * @description Acknowledged or Resolved; Active is set only by the service (a 400 from a caller).
             * @enum {string}
             */
            status?: "Active" | "Acknowledged" | "Resolved";
        };
        /** @description Absent fields are unchanged; the budget as changed is checked as at creation. */
        PatchBudgetRequest: {
            /** @description In the budget’s currency. */
            amount?: number;
            /** @enum {string} */
            costBasis?: "Effective" | "Billed";
            /** @description ISO 4217 code. */
            currency?: string;
            name?: string;
            /** @enum {string} */
            period?: "Monthly" | "Quarterly" | "Annually" | "Custom";
            periods?: {
                /** @description In the budget’s currency. */
                amount: number;
                /**
                 * Format: date
                 * @description YYYY-MM-DD (UTC day).
                 */
                from: string;
                /**
                 * Format: date
                 * @description YYYY-MM-DD (UTC day).
                 */
                to: string;
            }[];
            scope?: components["schemas"]["BudgetScope"];
            /**
             * Format: date
             * @description YYYY-MM-DD (UTC day).
             */
            startDate?: string;
            thresholds?: components["schemas"]["BudgetThreshold"][];
        };
        /**
         * @example {
         *       "action": "Snoozed",
         *       "snoozeDays": 14
         *     }
         * @example {
         *       "action": "Implemented"
         *     }
         */
        PatchInsightRequest: {
            /**
             * @description NotRelevant, AcceptedRisk, Implemented, FalsePositive or Snoozed; AutoResolved is set only by the service.
             * @enum {string}
             */
            action: "NotRelevant" | "AcceptedRisk" | "Implemented" | "FalsePositive" | "Snoozed" | "AutoResolved";
            snoozeDays?: (number | string) | null;
        };
        /** @description Absent fields are unchanged. */
        PatchNotificationChannelRequest: {
            /** @description Email channels: addresses to send to. */
            emails?: string[];
            /** @description true enables a disabled channel again (and clears disabledReason). */
            enabled?: boolean;
            name?: string;
            /** @description Slack: an incoming-webhook URL; Teams: a Workflows webhook URL; Webhook: any https URL. Never returned (it is a credential). http, and addresses that are not public, only within COSTWATCH_OUTBOUND_ALLOW. */
            url?: string;
            /** @description Email channels: users of the organisation, each at the address of their account. */
            userIds?: string[];
        };
        /** @description An absent or null field is left unchanged. */
        PatchPublicEventRequest: {
            category?: ("Deployment" | "Launch" | "Campaign" | "Configuration" | "Incident" | "Other") | null;
            /**
             * @description Extension: removes the prediction; not with prediction.
             * @default false
             */
            clearPrediction?: boolean;
            /**
             * @description Removes the tag filter; not with tagKey/tagValue.
             * @default false
             */
            clearTag?: boolean;
            /** @description "" clears the description. */
            description?: string | null;
            /**
             * Format: date-time
             * @description When it happened; any RFC 3339 offset, stored in UTC.
             */
            occurredAt?: string | null;
            prediction?: components["schemas"]["MarkerPredictionInput"] | null;
            tagKey?: string | null;
            tagValue?: string | null;
            /** @description 1 to 200 characters after trimming. */
            title?: string | null;
        };
        /**
         * @description An absent or null field is left unchanged.
         * @example {
         *       "isOwner": true
         *     }
         * @example {
         *       "isDisabled": true
         *     }
         * @example {
         *       "displayName": "Jane Doe"
         *     }
         */
        PatchPublicUserRequest: {
            displayName?: string | null;
            isDisabled?: boolean | null;
            isOwner?: boolean | null;
        };
        /** @description Absent fields are unchanged; `description: null` clears it, `schedule: null` removes the schedule. */
        PatchReportRequest: {
            description?: string | null;
            name?: string;
            /** @description The kind's parameters. CostByDimension: `dimension` (Subscription, ResourceGroup, Service, Resource, Tag), `tagKey` (with Tag), `top` (1..1000, optional), `period` (MonthToDate, LastMonth, Last30Days, Last90Days, Custom with `from` and `to`). TopResources: `count` (1..1000, default 20) and the period. AnomalySummary: the period. InsightSavings: none. */
            parameters?: {
                [key: string]: unknown;
            };
            schedule?: components["schemas"]["ReportSchedule"] | null;
            tenancyIds?: string[] | null;
        };
        /** @description A rule as it would be created, unsaved; name and channels may still be missing. */
        PreviewAlertRuleRequest: {
            channelIds?: string[];
            /** @description The hour digests go out, in timeZone (default 8). */
            digestHour?: number;
            /**
             * @description Weekly: the day digests go out (default Monday).
             * @enum {string}
             */
            digestWeekday?: "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday" | "Sunday";
            enabled?: boolean;
            /**
             * @description Immediate: each event as the analysis finds it; Daily or Weekly: a digest of the period at digestHour.
             * @enum {string}
             */
            frequency?: "Immediate" | "Daily" | "Weekly";
            name?: string;
            scope: components["schemas"]["AlertRuleScope"];
            /** @description Digest: sent even when the period had nothing to report. */
            sendWhenQuiet?: boolean;
            /** @description An IANA time zone (default UTC). */
            timeZone?: string;
            trigger: components["schemas"]["AlertRuleTrigger"];
        };
        /** @description RFC 9457 problem details. */
        Problem: {
            /** @description On a 409 for a snapshot already queued or running. */
            activeRunId?: string;
            detail?: string;
            /** @description Field errors: field name to messages. */
            errors?: {
                [key: string]: string[];
            };
            instance?: string;
            status: number;
            title: string;
            /** @description Identifies the request in the service logs. */
            traceId: string;
            /** @description A URI reference naming the kind of problem, e.g. `/problems/validation`. */
            type: string;
        } & {
            [key: string]: unknown;
        };
        QueuedNotificationDelivery: {
            /** Format: uuid */
            deliveryId: string;
        };
        Report: {
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            createdAt: string;
            description: string | null;
            /** Format: uuid */
            id: string;
            /**
             * @description CostByDimension: Cost by subscription, resource group, service, resource or the values of a tag over a period, largest first (by resource: in resource id order, unless `top` asks for the largest). TopResources: The `count` most expensive resources (default 20, at most 1,000) over a period, ranked. AnomalySummary: The anomalies raised in a period, by status (Active, Acknowledged, Resolved) then severity (High, Medium, Low), newest first: tenancy, scope, day raised, expected and actual cost, and impact (actual - expected). InsightSavings: The open insights (Active, or snoozed until the run at the latest) on the day the run was requested, by category, the category with the largest estimated monthly savings first, and within it the largest saving first: resource, group, subscription, tenancy, severity, the recommendation and its monthly saving. No parameters.
             * @enum {string}
             */
            kind: "CostByDimension" | "TopResources" | "AnomalySummary" | "InsightSavings";
            lastRun: components["schemas"]["ReportRun"] | null;
            name: string;
            /** @description The kind's parameters. CostByDimension: `dimension` (Subscription, ResourceGroup, Service, Resource, Tag), `tagKey` (with Tag), `top` (1..1000, optional), `period` (MonthToDate, LastMonth, Last30Days, Last90Days, Custom with `from` and `to`). TopResources: `count` (1..1000, default 20) and the period. AnomalySummary: the period. InsightSavings: none. */
            parameters: {
                [key: string]: unknown;
            };
            schedule: components["schemas"]["ReportSchedule"] | null;
            tenancyIds: string[] | null;
        };
        ReportRun: {
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            completedAt: string | null;
            error: {
                code: string;
                message: string;
            } | null;
            /** Format: uuid */
            id: string;
            /** Format: date */
            periodEnd: string | null;
            /** Format: date */
            periodStart: string | null;
            /** Format: uuid */
            reportId: string;
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            requestedAt: string;
            rowCount: number | null;
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            startedAt: string | null;
            /** @enum {string} */
            status: "Queued" | "Running" | "Succeeded" | "Failed";
        };
        /** @description A run with its data, up to 10,000 rows (empty until it succeeded). */
        ReportRunDetail: {
            columns: string[];
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            completedAt: string | null;
            error: {
                code: string;
                message: string;
            } | null;
            /** Format: uuid */
            id: string;
            /** Format: date */
            periodEnd: string | null;
            /** Format: date */
            periodStart: string | null;
            /** Format: uuid */
            reportId: string;
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            requestedAt: string;
            rowCount: number | null;
            rows: (string | number | null)[][];
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            startedAt: string | null;
            /** @enum {string} */
            status: "Queued" | "Running" | "Succeeded" | "Failed";
            /** @description True when the run has more than the 10,000 rows shown here. */
            truncated: boolean;
        };
        /** @description Queues one run per day, week or month, at the hour given (UTC), exactly once however many workers. */
        ReportSchedule: {
            /** @description Monthly only (default 1); 28 at most, so every month has it. */
            dayOfMonth?: number;
            /**
             * @description Weekly only (default Monday).
             * @enum {string}
             */
            dayOfWeek?: "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday" | "Sunday";
            /** @enum {string} */
            frequency: "Daily" | "Weekly" | "Monthly";
            /** @description The UTC hour from which the run is queued. */
            hourUtc: number;
        };
        Resource: {
            armId: string;
            /** @description Amortised cost (FOCUS EffectiveCost) in the billing currency, by UTC day. */
            costs: {
                /** @description ISO 4217 code. */
                currency: string;
                /** @description An amount in the billing currency named by `currency`. */
                last30Days: number;
                /** @description An amount in the billing currency named by `currency`. */
                monthToDate: number;
                /** @description An amount in the billing currency named by `currency`. */
                previousMonth: number;
            };
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            firstSeenAt: string;
            /** Format: uuid */
            id: string;
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            lastSeenAt: string;
            location: string | null;
            name: string;
            /** @description Extension: present when the resource was removed. Its drop to zero is this information, never a drop anomaly on it or on the scopes above it (its group, subscription, service and the tenant). */
            removal?: {
                /**
                 * @description `NotInLatestCollection`: the latest inventory collection no longer lists it (deleted at the provider). `NotInLaterImports`: its FOCUS rows stop while the imports cover later days.
                 * @enum {string}
                 */
                basis: "NotInLatestCollection" | "NotInLaterImports";
                /**
                 * Format: date
                 * @description The last UTC day the resource had cost (often billed in part).
                 */
                lastCostDate: string;
            };
            /** Format: uuid */
            resourceGroupId: string | null;
            /** @description Extension (a departure: the specification makes it a string): null for a resource of a cloud without resource groups (AWS, Google Cloud), whose `armId` is its own id (an ARN, a Google resource name). */
            resourceGroupName: string | null;
            resourceType: string;
            sku: string | null;
            state: string | null;
            /** @description The subscription, or for a FOCUS tenant of another cloud the AWS account or Google Cloud project. */
            subscriptionId: string;
            /** @description Tags as the provider reports them. */
            tags: {
                [key: string]: string;
            };
        };
        ResourceGroup: {
            armId: string;
            /** @description Amortised cost (FOCUS EffectiveCost) in the billing currency, by UTC day. */
            costs: {
                /** @description ISO 4217 code. */
                currency: string;
                /** @description An amount in the billing currency named by `currency`. */
                last30Days: number;
                /** @description An amount in the billing currency named by `currency`. */
                monthToDate: number;
                /** @description An amount in the billing currency named by `currency`. */
                previousMonth: number;
            };
            /** Format: uuid */
            id: string;
            location: string | null;
            name: string;
            resourceCount: number;
            subscriptionId: string;
            /** @description Tags as the provider reports them. */
            tags: {
                [key: string]: string;
            };
            /** Format: uuid */
            tenantId: string;
        };
        ResourceTypeList: {
            /** @description By type, ignoring case. */
            items: {
                resourceCount: number;
                /** @description e.g. Microsoft.Compute/virtualMachines. */
                resourceType: string;
            }[];
        };
        /** @description A cost and inventory collection run. Newest first in lists. */
        SnapshotRun: {
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            completedAt: string | null;
            /** @description An import or pull of FOCUS files: each checked FOCUS requirement and how many rows failed it (docs/focus.md lists them). Empty for a connector's collections. An addition to the contract. */
            conformance: {
                description: string;
                failedRows: number;
                /** @description The FOCUS requirement checked. */
                requirement: string;
            }[];
            deepHistory: boolean;
            error: {
                code: string;
                message: string;
            } | null;
            /** Format: uuid */
            id: string;
            /** Format: date */
            periodEnd: string | null;
            /** @description An import or pull of FOCUS files: each billing period it replaced, in order. Empty for a connector's collections. An addition to the contract. */
            periods: {
                /** @description The billing period, `YYYY-MM`. */
                billingPeriod: string;
                /** @description The files its rows came from. */
                files: string[];
                /** @description Whether an earlier version of the period was replaced. */
                replaced: boolean;
                /** @description Cost rows stored for it (summed per resource, day and meter). */
                rows: number;
            }[];
            /** Format: date */
            periodStart: string | null;
            /** @description While Running: what the run is doing (e.g. "collecting costs: 5200 rows so far"). An addition to the contract. */
            progress: string | null;
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            requestedAt: string;
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            startedAt: string | null;
            stats: {
                costRows: number;
                resourceGroups: number;
                resources: number;
                subscriptions: number;
            };
            /** @enum {string} */
            status: "Queued" | "Running" | "Succeeded" | "Failed";
            /** Format: uuid */
            tenantId: string;
            /**
             * @description What started the run. An addition to the contract.
             * @enum {string}
             */
            trigger: "Manual" | "Scheduled" | "Import";
        };
        Subscription: {
            /** @description Amortised cost (FOCUS EffectiveCost) in the billing currency, by UTC day. */
            costs: {
                /** @description ISO 4217 code. */
                currency: string;
                /** @description An amount in the billing currency named by `currency`. */
                last30Days: number;
                /** @description An amount in the billing currency named by `currency`. */
                monthToDate: number;
                /** @description An amount in the billing currency named by `currency`. */
                previousMonth: number;
            };
            /** @description ISO 4217 code. */
            currency: string;
            displayName: string;
            resourceCount: number;
            resourceGroupCount: number;
            /** @description Enabled, Disabled, Warned, PastDue or Deleted, as the provider reports it. */
            state: string;
            subscriptionId: string;
            /** Format: uuid */
            tenantId: string;
        };
        /**
         * @description One tag key of the tenant's resources with its distinct values (exact; keys are case-insensitive).
         * @example {
         *       "key": "environment",
         *       "resourceCount": 212,
         *       "valueCount": 3,
         *       "values": [
         *         "prod",
         *         "staging",
         *         "dev"
         *       ],
         *       "valuesTruncated": false
         *     }
         */
        TagKey: {
            /** @description The key in the spelling most resources use; other spellings count as the same key. */
            key: string;
            /** @description Resources carrying the key, in any spelling. */
            resourceCount: number;
            /** @description Distinct values of the key, all of them. */
            valueCount: number;
            /** @description Distinct values, most used first, then by text: up to 50, or up to 1,000 when `key` asks for it. */
            values: string[];
            /** @description True when the key has more values than `values` holds. */
            valuesTruncated: boolean;
        };
        /**
         * @example {
         *       "userId": "019a8f2e-5c1d-7b3a-9e42-6f1d2c3b4a50",
         *       "email": "jane.doe@example.com",
         *       "displayName": "Jane Doe",
         *       "role": "Editor",
         *       "isOwner": false
         *     }
         */
        TenancyUser: {
            displayName: string | null;
            /** Format: email */
            email: string;
            isOwner: boolean;
            /**
             * @description The user's role on the tenancy; an owner is Admin of every one.
             * @enum {string}
             */
            role: "Admin" | "Editor" | "Viewer";
            /** Format: uuid */
            userId: string;
        };
        Tenant: {
            /** @description SHA-1 (40 hex) or SHA-256 (64 hex) thumbprint of the client certificate. */
            certificateThumbprint: string | null;
            /** @description Application (client) id, a GUID. */
            clientId: string | null;
            /** @description The directory (tenant) id at the cloud provider: a GUID or a verified domain name. Null for a tenant whose costs come from FOCUS files. */
            cloudTenantId: string | null;
            /** @enum {string} */
            connector: "azure" | "simulated";
            /** @description Amortised cost (FOCUS EffectiveCost) in the billing currency, by UTC day. */
            costs: {
                /** @description ISO 4217 code. */
                currency: string;
                /** @description An amount in the billing currency named by `currency`. */
                last30Days: number;
                /** @description An amount in the billing currency named by `currency`. */
                monthToDate: number;
                /** @description An amount in the billing currency named by `currency`. */
                previousMonth: number;
            };
            /**
             * @description Where the costs come from: the Azure connector (the default), FOCUS files pulled from `location`, or FOCUS files pushed to `POST /tenants/{id}/cost-files`. An addition to the contract.
             * @enum {string}
             */
            costSource: "AzureConnector" | "FocusExport" | "FocusUpload";
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            createdAt: string;
            credentialType: ("ServicePrincipalSecret" | "ServicePrincipalCertificate" | "ManagedIdentity") | null;
            /** @description Whether a client secret is stored. The secret itself is never returned. */
            hasClientSecret: boolean;
            /** Format: uuid */
            id: string;
            lastSnapshot: {
                /**
                 * Format: date-time
                 * @description RFC 3339; returned in UTC with milliseconds.
                 */
                completedAt: string | null;
                /** Format: uuid */
                id: string;
                /** @enum {string} */
                status: "Queued" | "Running" | "Succeeded" | "Failed";
            } | null;
            /** @description Where a FocusExport tenant's files are pulled from. An addition to the contract. */
            location: {
                accessKeyId?: string | null;
                /**
                 * @description AzureBlob: how the pull signs in: with the SAS, or with the service principal (tenantId, clientId).
                 * @enum {string}
                 */
                auth?: "Sas" | "ServicePrincipal";
                bucket?: string;
                /** @description BigQuery: the service account's e-mail (no secret). */
                clientEmail?: string;
                /** @description AzureBlob, ServicePrincipal: the app's client id (no secret). */
                clientId?: string;
                containerUrl?: string;
                dataset?: string;
                endpoint?: string | null;
                /** @description Whether a secret (access key, SAS, client secret) is stored. It is never returned. */
                hasSecret: boolean;
                prefix: string;
                projectId?: string;
                region?: string;
                table?: string;
                /** @description AzureBlob, ServicePrincipal: the app's directory id. */
                tenantId?: string;
                /** @enum {string} */
                type: "S3" | "AzureBlob" | "BigQuery";
            } | null;
            name: string;
            provider: ("AWS" | "Azure" | "GoogleCloud" | "Other") | null;
        };
        /**
         * @description The tag keys of the tenant's resources, as the latest snapshot saw them, with their distinct values: what a tag filter of an event marker can name.
         * @example {
         *       "tenantId": "0193a8f0-1111-7222-8333-444455556666",
         *       "keys": [
         *         {
         *           "key": "environment",
         *           "resourceCount": 212,
         *           "valueCount": 3,
         *           "values": [
         *             "prod",
         *             "staging",
         *             "dev"
         *           ],
         *           "valuesTruncated": false
         *         },
         *         {
         *           "key": "team",
         *           "resourceCount": 198,
         *           "valueCount": 2,
         *           "values": [
         *             "payments",
         *             "search"
         *           ],
         *           "valuesTruncated": false
         *         }
         *       ],
         *       "keysTruncated": false
         *     }
         */
        TenantTags: {
            /** @description Most used first (resources carrying the key), then by key; at most 200. */
            keys: components["schemas"]["TagKey"][];
            /** @description True when the tenant has more than 200 keys. */
            keysTruncated: boolean;
            /** Format: uuid */
            tenantId: string;
        };
        /**
         * @example {
         *       "id": "019a8f2e-5c1d-7b3a-9e42-6f1d2c3b4a50",
         *       "email": "jane.doe@example.com",
         *       "displayName": null,
         *       "isOwner": false,
         *       "isDisabled": false,
         *       "status": "Invited",
         *       "invitedAt": "2026-03-01T09:00:00.000Z",
         *       "createdAt": "2026-03-01T09:00:00.000Z",
         *       "lastSeenAt": null
         *     }
         */
        User: {
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            createdAt: string;
            displayName: string | null;
            /**
             * Format: email
             * @description Unique in the organisation, compared case-insensitively.
             */
            email: string;
            /** Format: uuid */
            id: string;
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            invitedAt: string | null;
            isDisabled: boolean;
            /** @description An organisation owner: Admin of every tenancy, and manages users and keys. */
            isOwner: boolean;
            /**
             * Format: date-time
             * @description RFC 3339; returned in UTC with milliseconds.
             */
            lastSeenAt: string | null;
            /**
             * @description Invited until the invitation is accepted, then Active; Disabled while isDisabled.
             * @enum {string}
             */
            status: "Invited" | "Active" | "Disabled";
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    PublicListAnomalies: {
        parameters: {
            query?: {
                /** @description YYYY-MM-DD (UTC day). */
                dateRaised?: string;
                /** @description Extension: first UTC day raised, inclusive (YYYY-MM-DD). */
                from?: string;
                /** @description Extension: the anomalies of one incident (the id of the anomaly heading it), the head included. */
                incidentId?: string;
                /** @description Page number, from 1. */
                page?: number;
                /** @description Items per page, 1 to 200. */
                pageSize?: number;
                /** @description Extension: what `from` and `to` match. `raised` (the default): the day an anomaly was raised; `active`: its episode overlaps the range (raised by `to`, and ongoing or last anomalous on or after `from`), so an episode begun before a chart's range, or an incident whose head was raised before it, is still found. */
                range?: "raised" | "active";
                /** @description Extension: the anomalies drawn on one cost chart, in the grammar of the costs' `scope`. `tenant`: all of them; `subscription:{subscriptionId}`: the subscription's, its groups' and its resources'; `resourceGroup:{name}` (name case-insensitive): the group's and its resources'; `resource:{resourceId}`: the resource's. Meant with tenancyId. */
                scope?: string;
                severity?: "High" | "Medium" | "Low";
                status?: "Active" | "Acknowledged" | "Resolved";
                /** @description Extension: with a resourceGroup scope, the subscription the group is in. */
                subscriptionId?: string;
                tenancyId?: string;
                /** @description Extension: last UTC day raised, inclusive; not before `from`. */
                to?: string;
                /** @description Extension: `incidents` lists only the anomalies that head an incident (one item per incident, with incidentSize); `anomalies` (the default) lists every anomaly. */
                view?: "anomalies" | "incidents";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of Anomaly records. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Anomaly"][];
                        page: number;
                        pageSize: number;
                        totalCount: number;
                        totalPages: number;
                    };
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicGetAnomaly: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                anomalyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A day whose cost departs from its expected cost, on one scope. The expected cost is the median of the same weekday over the previous 8 weeks of cleaned history; a day is an anomaly when its robust score is at least 4 and the change is at least the minimum impact (25 in the billing currency) and 20% of the expected cost (all configurable). A run of anomalous days, or a new level, raises one anomaly on its first day. Severity grows with the impact in units of the minimum impact (COSTWATCH_ANOMALY_MIN_IMPACT, 25 by default): High from 10 times the minimum with a change of at least 50% of the expected cost, Medium from 3 times the minimum, Low below. Newest dateRaised first in lists. Extensions: episode, incidentId, incidentSize, feedback (with feedbackAt and feedbackBy) and likelyCause, the newest Deployment marker among relatedEvents on or before the episode's start. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Anomaly"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicUpdateAnomalyStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                anomalyId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchAnomalyRequest"];
            };
        };
        responses: {
            /** @description A day whose cost departs from its expected cost, on one scope. The expected cost is the median of the same weekday over the previous 8 weeks of cleaned history; a day is an anomaly when its robust score is at least 4 and the change is at least the minimum impact (25 in the billing currency) and 20% of the expected cost (all configurable). A run of anomalous days, or a new level, raises one anomaly on its first day. Severity grows with the impact in units of the minimum impact (COSTWATCH_ANOMALY_MIN_IMPACT, 25 by default): High from 10 times the minimum with a change of at least 50% of the expected cost, Medium from 3 times the minimum, Low below. Newest dateRaised first in lists. Extensions: episode, incidentId, incidentSize, feedback (with feedbackAt and feedbackBy) and likelyCause, the newest Deployment marker among relatedEvents on or before the episode's start. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Anomaly"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    ListBudgets: {
        parameters: {
            query?: {
                /** @description Page number, from 1. */
                page?: number;
                /** @description Items per page, 1 to 200. */
                pageSize?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of Budget records. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Budget"][];
                        page: number;
                        pageSize: number;
                        totalCount: number;
                        totalPages: number;
                    };
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    CreateBudget: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateBudgetRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Budget"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    GetBudget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                budgetId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Budget"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    DeleteBudget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                budgetId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    UpdateBudget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                budgetId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchBudgetRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Budget"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicListInsights: {
        parameters: {
            query?: {
                category?: "OrphanedResource" | "StoppedVm" | "OverProvisioned" | "ScheduleOpportunity" | "ReservedInstanceOpportunity" | "UnusedResource" | "HybridBenefitOpportunity" | "ExpiredResource";
                /** @description Whether to include insights whose status is not Active. `true` or `false` (case-insensitive). */
                includeDismissed?: string;
                /** @description Page number, from 1. */
                page?: number;
                /** @description Items per page, 1 to 200. */
                pageSize?: number;
                severity?: "Critical" | "High" | "Medium" | "Low";
                tenancyId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of Insight records. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Insight"][];
                        page: number;
                        pageSize: number;
                        totalCount: number;
                        totalPages: number;
                    };
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicGetInsight: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                insightId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A cost-reduction recommendation about one resource, one per resource and category. `status` is Active, the last action a person took, or AutoResolved (the condition is gone). Largest saving first in lists. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Insight"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicUpdateInsightStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                insightId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchInsightRequest"];
            };
        };
        responses: {
            /** @description A cost-reduction recommendation about one resource, one per resource and category. `status` is Active, the last action a person took, or AutoResolved (the condition is gone). Largest saving first in lists. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Insight"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    ListNotificationChannels: {
        parameters: {
            query?: {
                /** @description Page number, from 1. */
                page?: number;
                /** @description Items per page, 1 to 200. */
                pageSize?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of NotificationChannel records. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["NotificationChannel"][];
                        page: number;
                        pageSize: number;
                        totalCount: number;
                        totalPages: number;
                    };
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    CreateNotificationChannel: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateNotificationChannelRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedNotificationChannel"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    GetNotificationChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                channelId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Where alerts go: e-mail, a Slack or Teams channel, or a signed webhook. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationChannel"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    DeleteNotificationChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                channelId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted with its deliveries. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    UpdateNotificationChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                channelId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchNotificationChannelRequest"];
            };
        };
        responses: {
            /** @description Where alerts go: e-mail, a Slack or Teams channel, or a signed webhook. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationChannel"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The current state forbids the operation. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    ListNotificationDeliveries: {
        parameters: {
            query?: {
                /** @description Page number, from 1. */
                page?: number;
                /** @description Items per page, 1 to 200. */
                pageSize?: number;
            };
            header?: never;
            path: {
                channelId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of NotificationDelivery records. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["NotificationDelivery"][];
                        page: number;
                        pageSize: number;
                        totalCount: number;
                        totalPages: number;
                    };
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    RedeliverNotification: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                channelId: string;
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued; the worker sends it at once. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueuedNotificationDelivery"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The current state forbids the operation. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    RotateNotificationChannelSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                channelId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationChannelSecret"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The current state forbids the operation. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    TestNotificationChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                channelId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued; the worker sends it at once. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueuedNotificationDelivery"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The current state forbids the operation. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    ListNotificationRules: {
        parameters: {
            query?: {
                /** @description Page number, from 1. */
                page?: number;
                /** @description Items per page, 1 to 200. */
                pageSize?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of AlertRule records. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["AlertRule"][];
                        page: number;
                        pageSize: number;
                        totalCount: number;
                        totalPages: number;
                    };
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    CreateNotificationRule: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateAlertRuleRequest"];
            };
        };
        responses: {
            /** @description Which events go to which channels. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertRule"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    GetNotificationRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ruleId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Which events go to which channels. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertRule"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    DeleteNotificationRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ruleId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted, with what it sent. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    UpdateNotificationRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ruleId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchAlertRuleRequest"];
            };
        };
        responses: {
            /** @description Which events go to which channels. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertRule"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PreviewNotificationRule: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PreviewAlertRuleRequest"];
            };
        };
        responses: {
            /** @description Which of the last 30 days' anomalies (by day raised) would have alerted, one per incident, decided as the alert run decides. Only AnomalyRaised rules alert about anomalies: any other trigger previews none. Only tenancies the caller sees are previewed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertRulePreview"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicGetOrganisation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Organisation"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicListReports: {
        parameters: {
            query?: {
                /** @description Page number, from 1. */
                page?: number;
                /** @description Items per page, 1 to 200. */
                pageSize?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of Report records. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Report"][];
                        page: number;
                        pageSize: number;
                        totalCount: number;
                        totalPages: number;
                    };
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    CreateReport: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateReportRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Report"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicGetReport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                reportId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Report"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    DeleteReport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                reportId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted with its runs and their files. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    UpdateReport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                reportId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchReportRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Report"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicListReportRuns: {
        parameters: {
            query?: {
                /** @description Page number, from 1. */
                page?: number;
                /** @description Items per page, 1 to 200. */
                pageSize?: number;
            };
            header?: never;
            path: {
                reportId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of ReportRun records. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["ReportRun"][];
                        page: number;
                        pageSize: number;
                        totalCount: number;
                        totalPages: number;
                    };
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicTriggerReportRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                reportId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReportRun"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicGetReportRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                reportId: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A run with its data, up to 10,000 rows (empty until it succeeded). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReportRunDetail"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicDownloadReportRunCsv: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                reportId: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Redirect to the signed URL in Location. */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The current state forbids the operation. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicDownloadReportRunPdf: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                reportId: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run as PDF., with Content-Disposition: attachment and a file name. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": string;
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The current state forbids the operation. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicDownloadReportRunXlsx: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                reportId: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run as XLSX., with Content-Disposition: attachment and a file name. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": string;
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The current state forbids the operation. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicListTenancyUsers: {
        parameters: {
            query?: {
                /** @description Page number, from 1. */
                page?: number;
                /** @description Items per page, 1 to 200. */
                pageSize?: number;
            };
            header?: never;
            path: {
                tenancyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of TenancyUser records. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["TenancyUser"][];
                        page: number;
                        pageSize: number;
                        totalCount: number;
                        totalPages: number;
                    };
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    GrantTenancyRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenancyId: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GrantTenancyRoleRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenancyUser"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    RevokeTenancyRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenancyId: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The role is removed. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicListTenants: {
        parameters: {
            query?: {
                /** @description Page number, from 1. */
                page?: number;
                /** @description Items per page, 1 to 200. */
                pageSize?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of Tenant records. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Tenant"][];
                        page: number;
                        pageSize: number;
                        totalCount: number;
                        totalPages: number;
                    };
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicCreateTenant: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTenancyRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Tenant"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The current state forbids the operation. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicGetTenant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Tenant"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    GetAnomalyFeedbackCounts: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Extension: the people's feedback on a tenancy's anomalies. confirmed / (confirmed + notAnAnomaly) is the precision detection has in use. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnomalyFeedbackCounts"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    UploadTenantCostFile: {
        parameters: {
            query?: {
                /** @description The name the run gives the file (e.g. its own). */
                fileName?: string;
            };
            header?: never;
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/gzip": unknown;
                "application/octet-stream": unknown;
                "application/vnd.apache.parquet": unknown;
                "application/x-gzip": unknown;
                "text/csv": unknown;
            };
        };
        responses: {
            /** @description The import run; poll the Location. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SnapshotRun"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The current state forbids the operation. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    GetTenantDailyCosts: {
        parameters: {
            query?: {
                /** @description First UTC day, inclusive; default 29 days before `to`. */
                from?: string;
                /** @description `service`, `resourceGroup`, `resource` or `tag:KEY`. */
                groupBy?: string;
                /** @description `tenant`, `subscription:{subscriptionId}`, `resourceGroup:{name}` or `resource:{resourceId}`. */
                scope?: string;
                /** @description Chooses among resource groups of one name in several subscriptions. */
                subscriptionId?: string;
                /** @description Last UTC day, inclusive; default today. */
                to?: string;
            };
            header?: never;
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Daily amortised cost of one chart scope, with the event markers drawn on it. Every charge category counts (usage, purchases, taxes, credits, adjustments and corrections), as on the bill. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CostSeries"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The current state forbids the operation. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    GetTenantCostForecast: {
        parameters: {
            query?: {
                /** @description `service`, `resourceGroup`, `resource` or `tag:KEY`. */
                groupBy?: string;
                /** @description `tenant`, `subscription:{subscriptionId}`, `resourceGroup:{name}` or `resource:{resourceId}`. */
                scope?: string;
                /** @description Chooses among resource groups of one name in several subscriptions. */
                subscriptionId?: string;
                /** @description The last day forecast; default the end of the current month; at most 12 months ahead. */
                to?: string;
            };
            header?: never;
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Extension: the expected daily cost of a chart scope's series from the day after its last settled day up to `to`, with an 80% interval, each series' month-end and period totals, and the accuracy of the forecast in a backtest. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CostForecast"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request conflicts with an earlier one, or the data cannot answer it (not enough cost history to forecast). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicGetTenantEvents: {
        parameters: {
            query?: {
                category?: "Deployment" | "Launch" | "Campaign" | "Configuration" | "Incident" | "Other";
                /** @description Inclusive lower bound of occurredAt. */
                from?: string;
                /** @description Page number, from 1. */
                page?: number;
                /** @description Items per page, 1 to 200. */
                pageSize?: number;
                /** @description Inclusive upper bound of occurredAt. */
                to?: string;
            };
            header?: never;
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of Event records. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Event"][];
                        page: number;
                        pageSize: number;
                        totalCount: number;
                        totalPages: number;
                    };
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicCreateTenantEvent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried create safe (e.g. a CI step whose response was lost): a repeat with the same key and body within 24 hours answers the first response (same event, 201) and creates nothing; the same key with another body is a 422; a repeat while the first is still in flight is a 409 (retry shortly). Keys are kept per API key and tenant. 1 to 255 visible ASCII characters; a random UUID is a good key. */
                "idempotency-key"?: string;
            };
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreatePublicEventRequest"];
            };
        };
        responses: {
            /** @description An event marker drawn on cost charts. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Event"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The current state forbids the operation. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request conflicts with an earlier one, or the data cannot answer it (not enough cost history to forecast). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicGetTenantEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                eventId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An event marker drawn on cost charts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Event"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicDeleteTenantEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                eventId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted, at once and for good. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicUpdateTenantEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                eventId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchPublicEventRequest"];
            };
        };
        responses: {
            /** @description An event marker drawn on cost charts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Event"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    GetEventCostImpact: {
        parameters: {
            query?: {
                /** @description Days on each side of the marker, 1 to 90. */
                days?: number;
            };
            header?: never;
            path: {
                eventId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Cost on the marker's own chart scope before and after it: the N whole UTC days before the marker's day, and N days from the marker's day on. Every charge category counts. `before.cost` and `after.cost` are the sums of the days collected so far; the change compares daily averages over the settled days each side holds, so that three days after a marker are not set against seven before it. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventCostImpact"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    GetVisibleTenantEvents: {
        parameters: {
            query: {
                /** @description Inclusive lower bound of occurredAt; default `to` - 30 days. */
                from?: string;
                /** @description The chart: `tenant`, `subscription:{subscriptionId}`, `resourceGroup:{name}` (case-insensitive) or `resource:{resourceId}` (the resource UUID). */
                scope: string;
                /** @description Chooses among resource groups of the same name in several subscriptions. */
                subscriptionId?: string;
                /** @description Inclusive upper bound of occurredAt; default now. */
                to?: string;
            };
            header?: {
                /** @description The ETag of an earlier answer (or a list of them): a 304 without a body while it is current. */
                "if-none-match"?: string;
            };
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The markers on one cost chart, oldest first: universal markers everywhere; tagged markers on broad charts (tenant, subscription), and on a resource or resource-group chart only when its own tags hold the same key (case-insensitive) with the same value (exact). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * Format: date-time
                         * @description RFC 3339; returned in UTC with milliseconds.
                         */
                        from: string;
                        items: components["schemas"]["Event"][];
                        /** @description The scope of the chart, as asked (a resource id in lower case). */
                        scope: string;
                        /**
                         * Format: date-time
                         * @description RFC 3339; returned in UTC with milliseconds.
                         */
                        to: string;
                        /** @description True when more than 1,000 markers fall in the range; the oldest are kept. */
                        truncated: boolean;
                    };
                };
            };
            /** @description Not modified: the ETag in If-None-Match is current; no body. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The current state forbids the operation. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicListTenantResourceGroups: {
        parameters: {
            query?: {
                /** @description Page number, from 1. */
                page?: number;
                /** @description Items per page, 1 to 200. */
                pageSize?: number;
                subscriptionId?: string;
                /** @description An addition to the specification. `key:value` (the key ends at the first colon) keeps rows with that tag, `key` alone rows that have the key whatever its value; repeat it (up to 10) and every one must match. The key matches ignoring case (as Azure tag names do), the value exactly. */
                tag?: string[];
            };
            header?: never;
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of ResourceGroup records. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["ResourceGroup"][];
                        page: number;
                        pageSize: number;
                        totalCount: number;
                        totalPages: number;
                    };
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicGetTenantResourceGroup: {
        parameters: {
            query?: {
                /** @description Chooses among groups of this name in several subscriptions. */
                subscriptionId?: string;
            };
            header?: never;
            path: {
                resourceGroupName: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResourceGroup"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The current state forbids the operation. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    ListTenantResourceTypes: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResourceTypeList"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicListTenantResources: {
        parameters: {
            query?: {
                /** @description Resource name, case-insensitive exact. */
                armResourceName?: string;
                /** @description Page number, from 1. */
                page?: number;
                /** @description Items per page, 1 to 200. */
                pageSize?: number;
                /** @description The group's id (UUID) or its ARM id. */
                resourceGroupId?: string;
                /** @description e.g. Microsoft.Compute/virtualMachines, case-insensitive. */
                resourceType?: string;
                /** @description An addition to the specification. A part of the name, ignoring case (`web` finds vm-Web-01); blank is refused. */
                search?: string;
                /** @description An addition to the specification. `name` (the default), `-name` (Z to A), `resourceType` (then name), `-firstSeenAt` (newest first) or `-last30Days` (the most expensive over the last 30 days first, in the tenant's billing currency, then by name); ties by id. */
                sort?: "name" | "-name" | "resourceType" | "-firstSeenAt" | "-last30Days";
                /** @description Exact subscription id. */
                subscriptionId?: string;
                /** @description An addition to the specification. `key:value` (the key ends at the first colon) keeps rows with that tag, `key` alone rows that have the key whatever its value; repeat it (up to 10) and every one must match. The key matches ignoring case (as Azure tag names do), the value exactly. */
                tag?: string[];
            };
            header?: never;
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of Resource records. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Resource"][];
                        page: number;
                        pageSize: number;
                        totalCount: number;
                        totalPages: number;
                    };
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicGetTenantResource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                resourceId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Resource"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicListTenantSnapshots: {
        parameters: {
            query?: {
                /** @description Page number, from 1. */
                page?: number;
                /** @description Items per page, 1 to 200. */
                pageSize?: number;
            };
            header?: never;
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of SnapshotRun records. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["SnapshotRun"][];
                        page: number;
                        pageSize: number;
                        totalCount: number;
                        totalPages: number;
                    };
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicTriggerTenantSnapshot: {
        parameters: {
            query?: {
                /** @description Whether to collect the 30 days before today. `true` or `false` (case-insensitive). */
                deepHistory?: string;
            };
            header?: never;
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued; poll the Location. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SnapshotRun"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The current state forbids the operation. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    GetTenantSnapshot: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                snapshotId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A cost and inventory collection run. Newest first in lists. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SnapshotRun"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicListTenantSubscriptions: {
        parameters: {
            query?: {
                /** @description Page number, from 1. */
                page?: number;
                /** @description Items per page, 1 to 200. */
                pageSize?: number;
            };
            header?: never;
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of Subscription records. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Subscription"][];
                        page: number;
                        pageSize: number;
                        totalCount: number;
                        totalPages: number;
                    };
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicGetTenantSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                subscriptionId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    ListTenantTags: {
        parameters: {
            query?: {
                /**
                 * @description Only this key (any letter case), with up to 1,000 of its values.
                 * @example environment
                 */
                key?: string;
            };
            header?: never;
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tag keys of the tenant's resources, as the latest snapshot saw them, with their distinct values: what a tag filter of an event marker can name. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantTags"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicListUsers: {
        parameters: {
            query?: {
                /** @description Page number, from 1. */
                page?: number;
                /** @description Items per page, 1 to 200. */
                pageSize?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of User records. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["User"][];
                        page: number;
                        pageSize: number;
                        totalCount: number;
                        totalPages: number;
                    };
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicInviteUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvitePublicUserRequest"];
            };
        };
        responses: {
            /** @description Invited; the e-mail is on its way. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The current state forbids the operation. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicGetUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PublicUpdateUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchPublicUserRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The current state forbids the operation. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    ResendUserInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A new e-mail is on its way. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key can see the resource but lacks the permission this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or one the key cannot see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The current state forbids the operation. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (per key, or failed authentications per client address); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected error; the problem carries a traceId. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
}
