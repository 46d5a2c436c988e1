/**
 * s3rver serving the focus-pull benchmark's estate (BENCH_S3RVER_DIR, bucket BENCH_S3RVER_BUCKET), in a process of
 * its own: the pull's downloads do not share the benchmark's event loop. Plain JavaScript, run without tsx: under
 * tsx's loader a server stalled mid-pull (a synchronous load waiting on the loader's thread), its next request never
 * read. Sends `{ port }` over IPC once listening; exits on 'stop' or when the parent goes away.
 */
import S3rver from 's3rver'

const server = new S3rver({
  port: 0,
  address: '127.0.0.1',
  silent: true,
  directory: process.env.BENCH_S3RVER_DIR,
  configureBuckets: [{ name: process.env.BENCH_S3RVER_BUCKET }],
})
const { port } = await server.run()
const stop = async () => {
  setTimeout(() => process.exit(0), 2000).unref()
  await server.close()
  process.exit(0)
}
process.on('message', (m) => {
  if (m === 'stop') void stop()
})
process.on('disconnect', () => void stop())
process.send({ port })
