import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import type { Plugin } from 'vite'
import { type WidgetRelease, widgetReleaseFile } from '../../domain/widget-releases.ts'

interface ChunkInfo {
  type: 'chunk'
  fileName: string
  code: string
  isEntry: boolean
  imports: string[]
  facadeModuleId: string | null
}

/** Every element's definition, `widgets/<name>/define.tsx`, defines the tag `gc-<name>`. */
export function elementEntries(root: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(`${root}widgets`, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && readdirSync(`${root}widgets/${entry.name}`).includes('define.tsx'))
      .map((entry) => [entry.name, `widgets/${entry.name}/define.tsx`]),
  )
}

/**
 * Finishes `gc-widgets.js` (widgets/loader.ts) so it runs as a module and as a classic script
 * (a `<script>` pasted without `type="module"`):
 * - each element's code is an entry of its own, which the loader imports by a name it is given
 *   here, so Vite wraps no preload helper (with `import.meta`, a classic script's SyntaxError)
 *   around it; `__GC_ELEMENTS__` becomes, per tag, that chunk and every shared chunk it
 *   imports, directly or not, which the loader preloads alongside it;
 * - the loader is wrapped in a function, so its top-level names never become the page's globals;
 * - a loader that a classic script could not run fails the build;
 * - `release.json` names this build as a pinned release (PRODUCT.md, "pinned widget versions"):
 *   its version, the loader's Subresource Integrity hash and every file the loader can load.
 */
export function widgetLoader(loaderFile = 'gc-widgets.js'): Plugin {
  return {
    name: 'gc-widget-loader',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map(
        Object.values(bundle)
          .filter((file) => file.type === 'chunk')
          .map((chunk): [string, ChunkInfo] => [chunk.fileName, chunk]),
      )
      const loader = chunks.get(loaderFile)
      if (!loader) throw new Error(`${loaderFile} was not built`)
      if (loader.imports.length > 0 || /\bimport\.meta\b|\bexport\s*[{*]|^import\s/m.test(loader.code)) {
        throw new Error(`${loaderFile} must run as a classic script: no static imports, exports or import.meta`)
      }
      if (!loader.code.includes('__GC_ELEMENTS__')) throw new Error(`${loaderFile} no longer reads __GC_ELEMENTS__`)

      const elements: Record<string, { file: string; preload: string[] }> = {}
      for (const chunk of chunks.values()) {
        const name = chunk.isEntry && chunk.facadeModuleId?.match(/widgets\/([\w-]+)\/define\.tsx$/)?.[1]
        if (!name) continue
        elements[`gc-${name}`] = { file: `./${chunk.fileName}`, preload: [...sharedImports(chunk, chunks)].map((file) => `./${file}`) }
      }
      const code = loader.code.replaceAll('__GC_ELEMENTS__', JSON.stringify(elements))
      loader.code = `(()=>{${code}\n})();\n`

      const release: WidgetRelease = {
        ...releaseNames(loader.code),
        files: [...chunks.keys()].sort(),
      }
      this.emitFile({ type: 'asset', fileName: widgetReleaseFile, source: `${JSON.stringify(release, null, 2)}\n` })
    },
  }
}

function sharedImports(chunk: ChunkInfo, chunks: Map<string, ChunkInfo>, found = new Set<string>()): Set<string> {
  for (const fileName of chunk.imports) {
    if (found.has(fileName)) continue
    found.add(fileName)
    sharedImports(chunks.get(fileName)!, chunks, found)
  }
  return found
}

/**
 * A release is named by the package's version and the start of its loader's SHA-256: the loader
 * names every chunk by its content hash, so any change to any element's code is a new release,
 * and the same code always has the same name. The integrity is the SHA-384 a partner pins.
 */
export function releaseNames(loaderCode: string): { version: string; integrity: string } {
  const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
  const digest = createHash('sha256').update(loaderCode).digest('hex').slice(0, 10)
  return {
    version: `${version}-${digest}`,
    integrity: `sha384-${createHash('sha384').update(loaderCode).digest('base64')}`,
  }
}
