import { defineConfig } from 'vite'
import { precompress } from './scripts/build/precompress.ts'

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
  plugins: [precompress()],
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
    // Shared chunks are preloaded next to each element's chunk (one round trip less), resolved
    // against the loader's own URL so they come from us, not from the partner's origin.
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    rolldownOptions: {
      // React Query and lucide mark modules "use client" for React Server Components; irrelevant here.
      onLog(level, log, handler) {
        if (log.code !== 'MODULE_LEVEL_DIRECTIVE') handler(level, log)
      },
      input: { 'gc-widgets': 'widgets/loader.ts' },
      output: {
        entryFileNames: '[name].js',
        // One chunk per element, named after it: `chunks/inventory-<hash>.js`.
        chunkFileNames: (chunk) => {
          const element = chunk.facadeModuleId?.match(/widgets\/([\w-]+)\/define\.tsx$/)?.[1]
          return `chunks/${element ?? '[name]'}-[hash].js`
        },
        assetFileNames: 'chunks/[name]-[hash][extname]',
      },
    },
  },
})
