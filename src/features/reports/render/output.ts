import { createWriteStream, type WriteStream } from 'node:fs'

export interface OutputFile {
  stream: WriteStream
  /** `wait`, unless the file fails first: then the file's error. */
  unlessFailed<T>(wait: Promise<T>): Promise<T>
}

/**
 * A renderer's file, whose failure (a full disk, a lost mount) rejects every wait on it. Left to itself, such a
 * failure is an 'error' event nobody listens to, which ends the worker process, or a 'drain' or 'finish' that
 * never comes, which hangs the run.
 */
export function outputFile(path: string): OutputFile {
  const stream = createWriteStream(path)
  const failed = new Promise<never>((_resolve, reject) => stream.on('error', reject))
  failed.catch(() => {}) // it is raced by every wait, and may come when none is under way
  return { stream, unlessFailed: (wait) => Promise.race([wait, failed]) }
}
