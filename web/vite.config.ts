import { fileURLToPath } from 'node:url'
import preact from '@preact/preset-vite'
import { defineConfig } from 'vite'

/** The web interface, built into dist/web where `costwatch serve` finds it. */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [preact()],
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    // No inline scripts or data: modules: the Content-Security-Policy allows only files from the server.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
})
