import { fileURLToPath } from 'node:url'
import { defineConfig, type Rolldown } from 'vite'
import { njMapPlugin } from './scripts/build/nj-map-plugin.ts'
import { precompress } from './scripts/build/precompress.ts'

/**
 * The website: `vite build` makes the browser bundle (dist/host/client, with a manifest the
 * server reads), `vite build --ssr` the server renderer (dist/host/server). Real React here;
 * the partner widgets are built by vite.widgets.config.ts.
 */
export default defineConfig(({ isSsrBuild, command }) => ({
  publicDir: false,
  plugins: [njMapPlugin(), ...(isSsrBuild ? [] : [precompress()])],
  // The renderer carries its packages: the few icons it draws (importing the whole icon package
  // at run time cost the server 43 MB and a second of its start, docs/BENCHMARKS.md "Memory"),
  // and React, TanStack Query, tRPC and zod, read as one file instead of a hundred
  // (docs/decisions/0013-lean-start.md, third pass). Their production builds only: the server
  // renders with NODE_ENV=production (api/production-mode.ts). Not in `npm run dev`: Vite's
  // module runner evaluates sources as ES modules, and React's packages are CommonJS, which
  // Node loads itself (inlined, React failed with "module is not defined").
  ssr: command === 'build' ? { noExternal: true } : {},
  ...(isSsrBuild
    ? {
        define: { 'process.env.NODE_ENV': JSON.stringify('production') },
        resolve: { alias: { 'react-dom/client': fileURLToPath(new URL('host/server/no-browser-renderer.ts', import.meta.url)) } },
      }
    : {}),
  build: isSsrBuild
    ? {
        outDir: 'dist/host/server',
        emptyOutDir: true,
        ssr: 'host/entry-server.tsx',
        target: 'node20',
        rolldownOptions: {
          output: { entryFileNames: 'entry-server.js' },
          onLog: withoutDirectiveNotes,
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
