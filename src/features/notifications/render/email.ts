import type { OutgoingMail } from '../../../platform/mail.js'
import type { AlertMessage } from '../message.js'

const html = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;')

/** The e-mail of a message to one recipient: the title as the subject, a plain text and a simple HTML rendering. */
export function emailMessage(message: AlertMessage, to: string, footer: string): OutgoingMail {
  const buttons = [...(message.link ? [message.link] : []), ...message.actions]
  const text = [
    message.summary,
    '',
    ...message.facts.map((f) => `${f.label}: ${f.value}`),
    ...message.sections.flatMap((s) => ['', s.heading, ...s.lines.map((l) => `- ${l}`)]),
    ...(buttons.length > 0 ? ['', ...buttons.map((b) => `${b.label}: ${b.url}`)] : []),
    '',
    footer,
  ].join('\n')
  const facts = message.facts.length
    ? `<table>${message.facts.map((f) => `<tr><th align="left">${html(f.label)}</th><td>${html(f.value)}</td></tr>`).join('')}</table>`
    : ''
  const sections = message.sections
    .map((s) => `<h3>${html(s.heading)}</h3><ul>${s.lines.map((l) => `<li>${html(l)}</li>`).join('')}</ul>`)
    .join('')
  const links = buttons.length
    ? `<p>${buttons.map((b) => `<a href="${html(b.url)}">${html(b.label)}</a>`).join(' &middot; ')}</p>`
    : ''
  return {
    to,
    subject: message.title,
    text,
    html:
      `<!doctype html><html><body><h2>${html(message.title)}</h2><p>${html(message.summary)}</p>` +
      `${facts}${sections}${links}<p style="color:#666;font-size:small">${html(footer)}</p></body></html>`,
  }
}
