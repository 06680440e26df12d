import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import { precompress } from './scripts/build/precompress.ts'
import { elementEntries, widgetLoader } from './scripts/build/widget-loader.ts'

/**
 * The partner bundle: `dist/widgets/gc-widgets.js` (the loader) plus one hashed chunk per
 * element and shared chunks. An app-style build, not library mode, so everything is minified and
 * `process.env.NODE_ENV` is replaced. React is Preact here: same components, a tenth the size.
 */
/** `WIDGETS_WITH_REACT=1` builds with real react-dom instead, only to measure what Preact saves. */
const withReact = process.env.WIDGETS_WITH_REACT === '1'

export default defineConfig({
  base: './',
  publicDir: false,
  plugins: [widgetLoader(), precompress()],
  resolve: {
    alias: withReact ? [] : [
      { find: /^react$/, replacement: 'preact/compat' },
      { find: /^react-dom$/, replacement: 'preact/compat' },
      { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
      { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
      { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-runtime' },
    ],
  },
  build: {
    outDir: withReact ? 'dist/widgets-react' : 'dist/widgets',
    emptyOutDir: true,
    target: 'es2022',
    // The loader preloads each element's shared chunks itself (scripts/build/widget-loader.ts):
    // Vite's helper would put `import.meta` in it, which a classic <script> cannot parse.
    modulePreload: false,
    reportCompressedSize: false,
    rolldownOptions: {
      // React Query and lucide mark modules "use client" for React Server Components; irrelevant here.
      onLog(level, log, handler) {
        if (log.code !== 'MODULE_LEVEL_DIRECTIVE') handler(level, log)
      },
      // The loader, and each element's code as an entry the loader imports by name.
      input: { 'gc-widgets': 'widgets/loader.ts', ...elementEntries(fileURLToPath(new URL('./', import.meta.url))) },
      // Element chunks export nothing; the loader only runs them.
      preserveEntrySignatures: false,
      output: {
        // `gc-widgets.js` keeps its name (partners paste it); `chunks/inventory-<hash>.js`...
        entryFileNames: (chunk) => (chunk.name === 'gc-widgets' ? '[name].js' : 'chunks/[name]-[hash].js'),
        // The shared core every element loads (Preact, r2wc, defineWidget) keeps its name whatever
        // module Rolldown would otherwise name it after (domain/dollars.ts joining it made it `dollars-`).
        chunkFileNames: (chunk) =>
          chunk.moduleIds.some((id) => id.endsWith('/widgets/shared/define-widget.tsx')) ? 'chunks/define-widget-[hash].js' : 'chunks/[name]-[hash].js',
        assetFileNames: 'chunks/[name]-[hash][extname]',
      },
    },
  },
})
