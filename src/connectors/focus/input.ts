import { isAscii } from 'node:buffer'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pipeline, Readable } from 'node:stream'
import { pipeline as pipelineAsync } from 'node:stream/promises'
import { createGunzip } from 'node:zlib'
import type { FocusInput } from './types.js'

/** A file's bytes as text: gunzipped when they are gzip, decoded chunk by chunk. */
/**
 * Bytes per read and per gunzipped chunk: larger than gunzip's 16 KB (less work per row), but small enough that
 * a chunk's text is an ordinary young object that dies young: V8 puts strings over 128 KB in the large-object
 * space, which only a full collection frees, and memory grew by hundreds of MB between two of them.
 */
export const READ_CHUNK_BYTES = 64 * 1024

/**
 * Decodes a file's UTF-8 chunk by chunk (null: the end). A chunk of ASCII alone (nearly every chunk of an export)
 * is read as Latin-1, a copy of its bytes, instead of through TextDecoder: on the FOCUS benchmark, decoding took
 * 0.55 s of each reader's 10, now 0.1 s. The first chunk, and any chunk after one that may end inside a
 * character, still goes through the decoder, which so sees the file's start (where it drops a byte order mark)
 * and every character whole.
 */
export function createDecoder(): (chunk: Uint8Array | null) => string {
  const decoder = new TextDecoder('utf-8')
  let viaDecoder = true
  return (chunk) => {
    if (chunk === null) return decoder.decode()
    const ascii = isAscii(chunk)
    if (ascii && !viaDecoder) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1')
    const text = decoder.decode(chunk, { stream: true })
    viaDecoder = !ascii && chunk.length > 0 && chunk[chunk.length - 1]! >= 0x80
    return text
  }
}

/** What an input holds: text (CSV, gunzipped when it was gzip), or a Parquet file to read by row group. */
export type OpenedInput =
  | { kind: 'text'; source: Readable }
  /** A path to read; `cleanup` removes the temporary copy of a stream (nothing for a path input). */
  | { kind: 'parquet'; path: string; cleanup: () => Promise<void> }

/**
 * The file's bytes, gunzipped when they start with the gzip magic number (whatever the file is called). Zip
 * archives are refused by name rather than read as garbage.
 */
export async function openDecoded(input: FocusInput): Promise<Readable> {
  const opened = await openInput(input)
  if (opened.kind === 'text') return opened.source
  await opened.cleanup()
  throw new Error('a Parquet file; read it with openInput')
}

/**
 * Opens an input by what its first bytes are: Parquet (`PAR1`) is read with random access, so a path is read in
 * place and a stream (an upload) is first written to a temporary file, removed by `cleanup`; anything else is
 * text, gunzipped when it starts with the gzip magic number.
 */
export async function openInput(input: FocusInput): Promise<OpenedInput> {
  const raw: AsyncIterable<Uint8Array> =
    typeof input === 'string' ? createReadStream(input, { highWaterMark: READ_CHUNK_BYTES }) : input
  const chunks = raw[Symbol.asyncIterator]()
  const head: Buffer[] = []
  let size = 0
  while (size < 4) {
    const next = await chunks.next()
    if (next.done) break
    const chunk = Buffer.from(next.value)
    head.push(chunk)
    size += chunk.length
  }
  const first = Buffer.concat(head)
  if (first.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1'))) {
    await chunks.return?.()
    throw new Error('a zip archive; unzip it first')
  }
  async function* rest() {
    if (first.length > 0) yield first
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value
  }
  if (first.subarray(0, 4).toString('latin1') === PARQUET_MAGIC) {
    if (typeof input === 'string') {
      await chunks.return?.()
      return { kind: 'parquet', path: input, cleanup: async () => {} }
    }
    return spool(rest())
  }
  const bytes = Readable.from(rest(), { objectMode: false })
  const gzip = first[0] === 0x1f && first[1] === 0x8b
  return {
    kind: 'text',
    source: gzip ? pipeline(bytes, createGunzip({ chunkSize: READ_CHUNK_BYTES }), () => {}) : bytes,
  }
}

const PARQUET_MAGIC = 'PAR1'

/** A stream's bytes in a temporary file of their own (Parquet's footer is at its end: it cannot be streamed). */
async function spool(bytes: AsyncIterable<Uint8Array>): Promise<OpenedInput> {
  const dir = await mkdtemp(join(tmpdir(), 'costwatch-focus-upload-'))
  const cleanup = () => rm(dir, { recursive: true, force: true })
  const path = join(dir, 'upload.parquet')
  try {
    await pipelineAsync(Readable.from(bytes, { objectMode: false }), createWriteStream(path))
  } catch (err) {
    await cleanup()
    throw err
  }
  return { kind: 'parquet', path, cleanup }
}
