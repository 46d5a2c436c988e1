import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROOT } from './cli.js'

/** Azurite's well-known development account (its documented default, not a secret). */
export const AZURITE_ACCOUNT = 'devstoreaccount1'
export const AZURITE_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=='

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

async function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

/**
 * Azurite's Blob service on a free port of 127.0.0.1, its data in a temporary folder; `stop` removes both. With
 * `tls` it serves https with that key and certificate and takes OAuth bearer tokens too (`--oauth basic`: their
 * issuer, audience and lifetime are checked, not their signature), which it refuses over http.
 */
export async function startAzurite(
  options: { tls?: { key: string; certificate: string } } = {},
): Promise<{ blobUrl: string; stop(): Promise<void> }> {
  const folder = mkdtempSync(join(tmpdir(), 'costwatch-azurite-'))
  const port = await freePort()
  const tlsArgs: string[] = []
  if (options.tls) {
    const tlsFolder = join(folder, 'tls')
    mkdirSync(tlsFolder)
    writeFileSync(join(tlsFolder, 'key.pem'), options.tls.key)
    writeFileSync(join(tlsFolder, 'cert.pem'), options.tls.certificate)
    tlsArgs.push('--oauth', 'basic', '--cert', join(tlsFolder, 'cert.pem'), '--key', join(tlsFolder, 'key.pem'))
  }
  const child: ChildProcess = spawn(
    process.execPath,
    [
      join(ROOT, 'node_modules/azurite/dist/src/blob/main.js'),
      '--blobHost',
      '127.0.0.1',
      '--blobPort',
      String(port),
      '--location',
      folder,
      '--silent',
      '--skipApiVersionCheck',
      '--disableProductStyleUrl',
      ...tlsArgs,
    ],
    { stdio: 'ignore' },
  )
  const deadline = Date.now() + 30_000
  while (!(await accepting(port))) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('Azurite did not start')
    await new Promise((r) => setTimeout(r, 100))
  }
  return {
    blobUrl: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}/${AZURITE_ACCOUNT}`,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r))
        child.kill('SIGKILL')
        await exited
      }
      rmSync(folder, { recursive: true, force: true })
    },
  }
}
