import { defineConfig } from 'vite'

/**
 * The server itself, `host/server/main.ts` and everything of ours it imports, as one plain
 * JavaScript file (`dist/server/main.js`) that `npm start` runs with Node alone: no TypeScript
 * loader in the serving process (it cost 40-70 MB and a second of compiling at every start,
 * docs/decisions/0013-lean-start.md). Packages stay imports from node_modules. The file sits
 * two folders deep, like the sources, so paths the code resolves from its own place
 * (`new URL('../../', import.meta.url)`) still name the repository root.
 */
export default defineConfig({
  publicDir: false,
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
