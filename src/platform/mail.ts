import type { Transporter } from 'nodemailer'
import type { Clock, Ids } from './clock.js'
import type { SecretBox } from './crypto.js'
import type { Db, Queryable } from './db/index.js'
import type { RunEvents } from './runs/events.js'
import type { RunStore, RunTable } from './runs/store.js'
import { defineRunKind, type RunOutcome } from './runs/worker.js'
import { MAIL_BODY } from './sealed.js'

/** The outbox is a run table: each message is a run of the `mail` kind, retried with backoff until delivered. */
export const MAIL_RUNS: RunTable = { name: 'mail', table: 'mail_outbox' }
export type MailRunColumns = { bodySealed: string | null; messageId: string | null }

export interface OutgoingMail {
  to: string
  subject: string
  text: string
  html?: string
}

/** Where delivered mail goes: an SMTP server, or the log when none is configured. */
export interface MailTransport {
  /** Returns the message id the server gave. */
  send(mail: OutgoingMail): Promise<string | null>
}

export class MailDeliveryError extends Error {}

/**
 * SMTP through nodemailer (`smtp://user:pass@host:port`, or `smtps://`). Errors are rewritten without the
 * credentials, so a failed attempt can be logged and recorded as it is.
 */
export function smtpTransport(smtpUrl: string, from: string): MailTransport {
  const url = new URL(smtpUrl)
  const secrets = [url.password, decodeURIComponent(url.password), url.username, decodeURIComponent(url.username)]
    .filter((s) => s.length >= 3)
    .sort((a, b) => b.length - a.length)
  const clean = (text: string) => secrets.reduce((out, s) => out.replaceAll(s, '[redacted]'), text)
  // nodemailer is loaded with the first message: most processes of a worker's life send none.
  let transport: Promise<Transporter> | null = null
  const transporter = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url: smtpUrl,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
        logger: false,
        debug: false,
      }),
    ))
  return {
    async send(mail) {
      try {
        const info = await (await transporter()).sendMail({ ...mail, from })
        return typeof info.messageId === 'string' ? info.messageId : null
      } catch (err) {
        const code = (err as { code?: unknown }).code
        const message = err instanceof Error ? err.message : String(err)
        // A new error carries only a cleaned message: nodemailer's holds the SMTP dialogue (`command`, `response`).
        throw new MailDeliveryError(
          clean(`SMTP delivery failed${typeof code === 'string' ? ` (${code})` : ''}: ${message}`),
        )
      }
    },
  }
}

/** What `serve` and `worker` log once at start when no SMTP server is configured. */
export const MAIL_OFF_WARNING =
  'COSTWATCH_SMTP_URL is not set: e-mail is off. Invitations are written to the log; password reset links are not sent.'

/**
 * Without an SMTP server the message goes to the log: the one place a link from an e-mail may be written, so that
 * a small installation can still hand an invitation over (an owner's act). Password resets, which anyone may ask
 * for, queue no e-mail then.
 */
export function logTransport(log: (message: string) => void): MailTransport {
  return {
    async send(mail) {
      log(
        `COSTWATCH_SMTP_URL is not set, so this e-mail is written here instead of sent.\n` +
          `To: ${mail.to}\nSubject: ${mail.subject}\n\n${mail.text}`,
      )
      return null
    },
  }
}

/** The transport the configuration asks for. */
export function mailTransportOf(
  config: { smtpUrl: string | null; mailFrom: string },
  log: (message: string) => void,
): MailTransport {
  return config.smtpUrl ? smtpTransport(config.smtpUrl, config.mailFrom) : logTransport(log)
}

/**
 * Queues messages in the caller's transaction (the change that sends them commits with its mail, or neither
 * does), sealed with the secret key as they may hold a single-use link.
 */
export function createOutbox(deps: {
  secrets: SecretBox
  ids: Ids
  clock: Clock
  events: RunEvents
  runs: RunStore<MailRunColumns>
}) {
  const { secrets, ids, clock } = deps
  return {
    runs: deps.runs,
    /** Writes the message in `trx`; returns its run id, to `announce` once the transaction committed. */
    async queue(trx: Queryable, organisationId: string | null, mail: OutgoingMail): Promise<string> {
      const id = ids.uuid()
      await trx
        .insertInto('mailOutbox')
        .values({
          id,
          tenantId: null,
          status: 'Queued',
          requestedAt: clock.now().toISOString(),
          organisationId,
          recipient: mail.to,
          subject: mail.subject,
          bodySealed: secrets.seal(JSON.stringify({ text: mail.text, html: mail.html ?? null }), MAIL_BODY.purpose(id)),
        })
        .execute()
      return id
    },
    /** Tells this process's worker (and the metrics) that messages were queued, after their commit. */
    async announce(runIds: string[]): Promise<void> {
      await deps.events.committed(
        runIds.map((runId) => ({ type: 'run:queued', kind: MAIL_RUNS.name, runId, tenantId: null })),
      )
    },
  }
}
export type Outbox = ReturnType<typeof createOutbox>

/** 30 s, 1 min, 2 min... at most 1 h between attempts: an SMTP outage of a day delays mail, and loses none. */
const mailRetryDelayMs = (attempts: number) => Math.min(3_600_000, 30_000 * 2 ** (attempts - 1))
/** With that backoff, 30 attempts keep trying for about a day. */
export const MAIL_MAX_ATTEMPTS = 30

/** Delivers one queued message, then forgets its body: a delivered link is no longer kept in the outbox. */
export function mailRunKind(deps: { db: Db; secrets: SecretBox; transport: MailTransport }) {
  return defineRunKind<MailRunColumns>({
    ...MAIL_RUNS,
    maxAttempts: MAIL_MAX_ATTEMPTS,
    retryDelayMs: mailRetryDelayMs,
    async handle(run, { succeed }) {
      const row = await deps.db.kysely
        .selectFrom('mailOutbox')
        .select(['recipient', 'subject', 'bodySealed'])
        .where('id', '=', run.id)
        .executeTakeFirst()
      if (!row?.bodySealed) return // delivered before (a retried success): nothing to send again
      const body = JSON.parse(deps.secrets.open(row.bodySealed, MAIL_BODY.purpose(run.id))) as {
        text: string
        html: string | null
      }
      const messageId = await deps.transport.send({
        to: row.recipient,
        subject: row.subject,
        text: body.text,
        ...(body.html ? { html: body.html } : {}),
      })
      await succeed(async () => ({ bodySealed: null, messageId }))
    },
    failure(error): RunOutcome {
      if (error instanceof MailDeliveryError) return { code: 'smtp_failed', message: error.message, retry: true }
      return { code: 'mail_failed', message: 'The message could not be delivered; the error was logged.', retry: true }
    },
  })
}
