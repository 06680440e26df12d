import { defineConfig } from 'vite'

/**
 * The server itself, `host/server/main.ts` and everything it imports, as plain JavaScript
 * (`dist/server/main.js`) that `npm start` runs with Node alone: no TypeScript loader in the
 * serving process (it cost 40-70 MB and a second of compiling at every start,
 * docs/decisions/0013-lean-start.md). The packages are bundled in too (Express and its
 * dependencies are a hundred small CommonJS files that Node would otherwise find, read and wrap
 * one by one at every start), except those that find files beside their own code or load native
 * or optional code when first used: PGlite (its WebAssembly, data and extension bundles), sharp,
 * nodemailer, and Vite (development only). The file sits two folders deep, like the sources, so
 * paths the code resolves from its own place (`new URL('../../', import.meta.url)`) still name the
 * repository root.
 */
export default defineConfig({
  publicDir: false,
  ssr: { noExternal: true, external: ['@electric-sql/pglite', '@electric-sql/pglite-socket', 'sharp', 'nodemailer', 'vite'] },
  build: {
    outDir: 'dist/server',
    emptyOutDir: true,
    ssr: 'host/server/main.ts',
    target: 'node20',
    minify: false,
    reportCompressedSize: false,
    rolldownOptions: { output: { entryFileNames: 'main.js' } },
  },
})
