import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { brotliCompress, constants, gzip } from 'node:zlib'
import { promisify } from 'node:util'
import type { Plugin } from 'vite'

const brotli = promisify(brotliCompress)
const gz = promisify(gzip)
const compressible = /\.(js|mjs|css|html|svg|json|xml|txt)$/

/**
 * Writes `.br` and `.gz` beside every text file of a client build, compressed once at the
 * highest levels, so the server sends the smallest bytes without spending CPU per request.
 */
export function precompress(): Plugin {
  return {
    name: 'gc-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir
      if (!dir) return
      await Promise.all(
        Object.keys(bundle)
          .filter((file) => compressible.test(file))
          .map(async (file) => {
            const path = join(dir, file)
            const source = await readFile(path)
            await writeFile(
              `${path}.br`,
              await brotli(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: source.length } }),
            )
            await writeFile(`${path}.gz`, await gz(source, { level: 9 }))
          }),
      )
    },
  }
}
