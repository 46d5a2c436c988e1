import type { AlertMessage } from '../message.js'

/** Slack's mrkdwn treats these three as markup; everything else is shown as it is. */
const mrkdwn = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

/**
 * An incoming-webhook message: Block Kit blocks (a header, the summary, the facts as fields, a section per part,
 * the buttons, a context line) and `text`, the plain-text fallback notifications and old clients show.
 */
export function slackMessage(message: AlertMessage, footer: string): Record<string, unknown> {
  const blocks: Record<string, unknown>[] = [
    { type: 'header', text: { type: 'plain_text', text: cut(message.title, 150), emoji: false } },
    { type: 'section', text: { type: 'mrkdwn', text: cut(mrkdwn(message.summary), 3000) } },
  ]
  // A section takes at most 10 fields.
  for (let i = 0; i < message.facts.length; i += 10) {
    blocks.push({
      type: 'section',
      fields: message.facts.slice(i, i + 10).map((f) => ({
        type: 'mrkdwn',
        text: cut(`*${mrkdwn(f.label)}*\n${mrkdwn(f.value)}`, 2000),
      })),
    })
  }
  for (const section of message.sections) {
    const lines = section.lines.map((line) => `• ${mrkdwn(line)}`).join('\n')
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text: cut(`*${mrkdwn(section.heading)}*\n${lines}`, 3000) },
    })
  }
  const buttons = [...(message.link ? [message.link] : []), ...message.actions].slice(0, 25)
  if (buttons.length > 0) {
    blocks.push({
      type: 'actions',
      elements: buttons.map((b, i) => ({
        type: 'button',
        text: { type: 'plain_text', text: cut(b.label, 75) },
        url: b.url,
        action_id: `costwatch_${i}`,
        ...(i === 0 ? { style: 'primary' } : {}),
      })),
    })
  }
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: cut(mrkdwn(footer), 3000) }] })
  const link = message.link ? `\n${message.link.label}: ${message.link.url}` : ''
  return { text: `${message.title}\n${message.summary}${link}`, blocks: blocks.slice(0, 50) }
}
