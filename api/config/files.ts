import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))

/**
 * The folders the server sends files from as they are, named once and resolved from the
 * repository root, so they hold wherever the server is started (docs/ARCHITECTURE.md lists
 * where each kind of file lives).
 */
export const staticFolders = {
  /** Cart drawings, the site's pictures and the favicon (scripts/artwork/generate.ts writes them). */
  public: `${root}host/public/`,
  /** The partner widget bundle (`vite.widgets.config.ts` builds it). */
  widgets: `${root}dist/widgets/`,
} as const
