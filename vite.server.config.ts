import { defineConfig } from 'vite'
import { commands } from './scripts/build/builds.js'

/**
 * The server itself, `host/server/main.ts` and everything it imports, as plain JavaScript
 * (`dist/server/main.js`) that `npm start` runs with Node alone, and beside it the dealer's
 * commands (`scripts/<name>.ts` as `dist/server/<name>.js`, run by `scripts/command.js`,
 * decision 0034), the code they share in chunks of their own: no TypeScript loader in the
 * serving process (it cost 40-70 MB and a second of compiling at every start,
 * docs/decisions/0013-lean-start.md). The packages are bundled in too (Express and its
 * dependencies are a hundred small CommonJS files that Node would otherwise find, read and wrap
 * one by one at every start), except those that find files beside their own code or load native
 * or optional code when first used: PGlite (its WebAssembly, data and extension bundles), sharp,
 * nodemailer, twilio (its API domains are required lazily), and Vite (development only). Every file sits two folders deep, like the sources, so
 * paths the code resolves from its own place (`new URL('../../', import.meta.url)`) still name the
 * repository root.
 */
export default defineConfig({
  publicDir: false,
  ssr: { noExternal: true, external: ['@electric-sql/pglite', '@electric-sql/pglite-socket', 'sharp', 'nodemailer', 'twilio', 'vite'] },
  build: {
    outDir: 'dist/server',
    emptyOutDir: true,
    ssr: true,
    target: 'node20',
    minify: false,
    reportCompressedSize: false,
    rolldownOptions: {
      input: { main: 'host/server/main.ts', ...Object.fromEntries(commands.map((name) => [name, `scripts/${name}.ts`])) },
      // Shared code in files beside the entries, two folders deep like them.
      output: { entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
    },
  },
})
