import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export interface ReceivedMail {
  from: string
  to: string[]
  headers: Record<string, string>
  text: string
  html: string
  raw: string
}

export const SMTP_USER = 'mailer'
export const SMTP_PASSWORD = 'smtp-pa55word-never-logged'

interface Part {
  headers: Record<string, string>
  body: string
}

function parseHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const line of block.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const at = line.indexOf(':')
    if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim()
  }
  return headers
}

function decode(part: Part): string {
  const encoding = (part.headers['content-transfer-encoding'] ?? '7bit').toLowerCase()
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8')
  if (encoding === 'quoted-printable') {
    const bytes = part.body
      .replace(/=\r\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    return Buffer.from(bytes, 'latin1').toString('utf8')
  }
  return part.body
}

/** The text/plain and text/html parts of a MIME message (multipart or not), decoded. */
function leaves(part: Part): Part[] {
  const type = part.headers['content-type'] ?? 'text/plain'
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1]
  if (!type.toLowerCase().startsWith('multipart/') || !boundary) return [part]
  return part.body
    .split(`--${boundary}`)
    .slice(1, -1)
    .flatMap((chunk) => {
      const body = chunk.replace(/^\r\n/, '')
      const split = body.indexOf('\r\n\r\n')
      return leaves({ headers: parseHeaders(body.slice(0, split)), body: body.slice(split + 4).replace(/\r\n$/, '') })
    })
}

export function parseMail(raw: string, from: string, to: string[]): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n')
  const root = { headers: parseHeaders(raw.slice(0, split)), body: raw.slice(split + 4) }
  const parts = leaves(root)
  const of = (type: string) =>
    parts
      .filter((p) => (p.headers['content-type'] ?? 'text/plain').startsWith(type))
      .map(decode)
      .join('')
  return { from, to, headers: root.headers, text: of('text/plain'), html: of('text/html'), raw }
}

/**
 * A real SMTP server on a free local port, with a user and password, that keeps what it receives. It can be
 * stopped (an outage) and started again on the same port.
 */
export function createTestSmtpServer() {
  const received: ReceivedMail[] = []
  let server: SMTPServer | null = null
  let port = 0
  const make = () =>
    new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      authMethods: ['PLAIN', 'LOGIN'],
      logger: false,
      onAuth(auth, _connection, callback) {
        if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) return callback(null, { user: SMTP_USER })
        return callback(new Error('Invalid username or password'))
      },
      onData(stream, connection, callback) {
        const chunks: Buffer[] = []
        stream.on('data', (c: Buffer) => chunks.push(c))
        stream.on('end', () => {
          const from = connection.envelope.mailFrom ? connection.envelope.mailFrom.address : ''
          const to = connection.envelope.rcptTo.map((r) => r.address)
          received.push(parseMail(Buffer.concat(chunks).toString('utf8'), from, to))
          callback()
        })
      },
    })
  return {
    received,
    get url() {
      return `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${port}`
    },
    async start(): Promise<void> {
      const next = make()
      await new Promise<void>((resolve, reject) => {
        next.once('error', reject)
        next.listen(port, '127.0.0.1', () => resolve())
      })
      port = (next.server.address() as AddressInfo).port
      server = next
    },
    async stop(): Promise<void> {
      const current = server
      server = null
      if (current) await new Promise<void>((resolve) => current.close(() => resolve()))
    },
  }
}
