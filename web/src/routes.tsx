import type { ComponentChildren } from 'preact'
import type { SessionUser } from './api'
import { AnomaliesPage } from './pages/anomalies'
import { AnomalyPage } from './pages/anomalies/detail'
import { BudgetPage, BudgetsPage } from './pages/budgets'
import { ExplorerPage } from './pages/explorer'
import { InsightsPage } from './pages/insights'
import { InsightPage } from './pages/insights/detail'
import { InventoryPage } from './pages/inventory'
import { MarkersPage } from './pages/markers'
import { OverviewPage } from './pages/overview'
import { ReportPage, ReportsPage } from './pages/reports'
import { AuditPage, KeysPage, NotificationsPage, UsersPage } from './pages/settings'
import { TenantsPage } from './pages/tenants'
import { RunsPage } from './pages/tenants/runs'

/** What a page gets: the path's named parts (decoded) and the signed-in user. */
export interface PageProps {
  params: Record<string, string>
  user: SessionUser
}

interface Route {
  /** A path with `:name` parts, e.g. `/tenants/:tenantId/markers`. */
  path: string
  page: (props: PageProps) => ComponentChildren
  /** The page's name in the document's title ("Anomalies · Costwatch"). */
  title: string
  /** Owners only: anyone else gets the "not for you" page. */
  ownersOnly?: boolean
}

/** Every page of the app. A new page is one line here (and, when it is a section, one in `NAV` below). */
export const ROUTES: Route[] = [
  { path: '/overview', title: 'Overview', page: () => <OverviewPage /> },
  { path: '/tenants', title: 'Tenants', page: ({ user }) => <TenantsPage user={user} /> },
  {
    path: '/tenants/:tenantId',
    title: 'Costs',
    page: ({ params }) => <ExplorerPage tenantId={params.tenantId ?? ''} />,
  },
  {
    path: '/tenants/:tenantId/inventory',
    title: 'Inventory',
    page: ({ params }) => <InventoryPage tenantId={params.tenantId ?? ''} />,
  },
  {
    path: '/tenants/:tenantId/runs',
    title: 'Runs',
    page: ({ params, user }) => <RunsPage tenantId={params.tenantId ?? ''} user={user} />,
  },
  { path: '/reports', title: 'Reports', page: ({ user }) => <ReportsPage user={user} /> },
  {
    path: '/reports/:reportId',
    title: 'Report',
    page: ({ params, user }) => <ReportPage reportId={params.reportId ?? ''} user={user} />,
  },
  { path: '/budgets', title: 'Budgets', page: ({ user }) => <BudgetsPage user={user} /> },
  {
    path: '/budgets/:budgetId',
    title: 'Budget',
    page: ({ params, user }) => <BudgetPage budgetId={params.budgetId ?? ''} user={user} />,
  },
  { path: '/anomalies', title: 'Anomalies', page: () => <AnomaliesPage /> },
  {
    path: '/anomalies/:anomalyId',
    title: 'Anomaly',
    page: ({ params, user }) => <AnomalyPage anomalyId={params.anomalyId ?? ''} user={user} />,
  },
  { path: '/insights', title: 'Insights', page: () => <InsightsPage /> },
  {
    path: '/insights/:insightId',
    title: 'Insight',
    page: ({ params, user }) => <InsightPage insightId={params.insightId ?? ''} user={user} />,
  },
  { path: '/settings', title: 'API keys', page: () => <KeysPage />, ownersOnly: true },
  { path: '/settings/keys', title: 'API keys', page: () => <KeysPage />, ownersOnly: true },
  { path: '/settings/users', title: 'Users', page: ({ user }) => <UsersPage me={user} />, ownersOnly: true },
  {
    path: '/settings/notifications',
    title: 'Notifications',
    page: ({ user }) => <NotificationsPage user={user} />,
  },
  { path: '/settings/audit', title: 'Audit log', page: () => <AuditPage />, ownersOnly: true },
  {
    path: '/tenants/:tenantId/markers',
    title: 'Markers',
    page: ({ params, user }) => <MarkersPage tenantId={params.tenantId ?? ''} user={user} />,
  },
]

/** The sections in the top bar; `prefix` marks the link current for every page under it. */
export const NAV: {
  href: string
  label: string
  prefix: string
  ownersOnly?: boolean
  /** Where the section's link goes for anyone but an owner (then it is shown to them). */
  othersHref?: string
}[] = [
  { href: '/overview', label: 'Overview', prefix: '/overview' },
  { href: '/tenants', label: 'Tenants', prefix: '/tenants' },
  { href: '/anomalies', label: 'Anomalies', prefix: '/anomalies' },
  { href: '/insights', label: 'Insights', prefix: '/insights' },
  { href: '/reports', label: 'Reports', prefix: '/reports' },
  { href: '/budgets', label: 'Budgets', prefix: '/budgets' },
  {
    href: '/settings/keys',
    label: 'Settings',
    prefix: '/settings',
    ownersOnly: true,
    othersHref: '/settings/notifications',
  },
]

/** The document's title for a page named `name`. */
export function documentTitle(name: string): string {
  return `${name} · Costwatch`
}

export function matchRoute(path: string): { route: Route; params: Record<string, string> } | null {
  const parts = path.replace(/\/+$/, '').split('/')
  for (const route of ROUTES) {
    const pattern = route.path.split('/')
    if (pattern.length !== parts.length) continue
    const params: Record<string, string> = {}
    const matches = pattern.every((segment, i) => {
      const part = parts[i] ?? ''
      if (segment.startsWith(':')) {
        if (!part) return false
        try {
          params[segment.slice(1)] = decodeURIComponent(part)
        } catch {
          return false
        }
        return true
      }
      return segment === part
    })
    if (matches) return { route, params }
  }
  return null
}
