import type { AlertMessage } from '../message.js'

/**
 * A Teams Workflows message: one attachment holding an Adaptive Card 1.4 (the title, the summary, the facts as a
 * FactSet, a block per part, the buttons as Action.OpenUrl).
 */
export function teamsMessage(message: AlertMessage, footer: string): Record<string, unknown> {
  const body: Record<string, unknown>[] = [
    { type: 'TextBlock', text: message.title, size: 'Large', weight: 'Bolder', wrap: true, style: 'heading' },
    { type: 'TextBlock', text: message.summary, wrap: true },
  ]
  if (message.facts.length > 0)
    body.push({ type: 'FactSet', facts: message.facts.map((f) => ({ title: f.label, value: f.value })) })
  for (const section of message.sections) {
    body.push({ type: 'TextBlock', text: section.heading, weight: 'Bolder', wrap: true, spacing: 'Medium' })
    body.push({ type: 'TextBlock', text: section.lines.map((l) => `- ${l}`).join('\n'), wrap: true })
  }
  body.push({ type: 'TextBlock', text: footer, isSubtle: true, size: 'Small', wrap: true })
  const actions = [...(message.link ? [message.link] : []), ...message.actions].map((a) => ({
    type: 'Action.OpenUrl',
    title: a.label,
    url: a.url,
  }))
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body,
          ...(actions.length > 0 ? { actions } : {}),
        },
      },
    ],
  }
}
