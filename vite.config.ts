import { defineConfig, type Rolldown } from 'vite'
import { njMapPlugin } from './scripts/build/nj-map-plugin.ts'
import { precompress } from './scripts/build/precompress.ts'

/**
 * The website: `vite build` makes the browser bundle (dist/host/client, with a manifest the
 * server reads), `vite build --ssr` the server renderer (dist/host/server). Real React here;
 * the partner widgets are built by vite.widgets.config.ts.
 */
export default defineConfig(({ isSsrBuild }) => ({
  publicDir: false,
  plugins: [njMapPlugin(), ...(isSsrBuild ? [] : [precompress()])],
  // The renderer bundles the few icons it draws: importing the whole icon package at run time
  // cost the server 43 MB and a second of its start (docs/BENCHMARKS.md, "Memory").
  ssr: { noExternal: ['lucide-react'] },
  build: isSsrBuild
    ? {
        outDir: 'dist/host/server',
        emptyOutDir: true,
        ssr: 'host/entry-server.tsx',
        target: 'node20',
        rolldownOptions: {
          output: { entryFileNames: 'entry-server.js' },
          onLog: withoutDirectiveNotes,
          // A package the renderer uses nothing of is not loaded for its side effects: components
          // that hydrate themselves import react-dom/client, and keeping that import made every
          // start load React's browser renderer (100 ms, docs/decisions/0013-lean-start.md).
          treeshake: { moduleSideEffects: 'no-external' },
        },
      }
    : {
        outDir: 'dist/host/client',
        emptyOutDir: true,
        manifest: true,
        target: 'es2022',
        reportCompressedSize: false,
        rolldownOptions: {
          // The site, and the staff console's small script (docs/decisions/0016).
          input: ['host/entry-client.tsx', 'host/staff/entry-client.tsx'],
          onLog: withoutDirectiveNotes,
        },
      },
}))

/** React packages mark modules "use client", which means nothing to a bundle: not worth a warning. */
function withoutDirectiveNotes(level: Rolldown.LogLevel, log: Rolldown.RollupLog, handler: Rolldown.LogOrStringHandler) {
  if (log.code !== 'MODULE_LEVEL_DIRECTIVE') handler(level, log)
}
