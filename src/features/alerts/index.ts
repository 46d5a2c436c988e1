import type { Feature } from '../feature.js'
import { alertRoutes } from './routes.js'
import {
  CreateRuleRequest,
  PatchRuleRequest,
  PreviewRuleRequest,
  RulePreview,
  RulePreviewItem,
  RuleRecord,
  RuleScope,
  RuleTrigger,
} from './schemas.js'
import type { AlertService } from './service.js'

export const alerts: Feature<{ alerts: AlertService }> = {
  name: 'alerts',
  schemas: [
    RuleScope,
    RuleTrigger,
    RuleRecord,
    CreateRuleRequest,
    PatchRuleRequest,
    PreviewRuleRequest,
    RulePreviewItem,
    RulePreview,
  ],
  routes: (api, s) => api.register(alertRoutes, { alerts: s.alerts }),
}
