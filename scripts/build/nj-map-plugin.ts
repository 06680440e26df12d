import type { Plugin } from 'vite'
import { buildNjMap, type NjMap } from './nj-map.ts'

const VIRTUAL_ID = 'virtual:nj-map'
const RESOLVED_ID = `\0${VIRTUAL_ID}`

/**
 * Serves `virtual:nj-map`: the home page's New Jersey county map (docs/PRODUCT.md, "Home"), built
 * from the `us-atlas` census geometry when the bundle is built, so no generated file is
 * committed. The map is computed once per plugin instance and exported as plain JSON data:
 *
 *   import map from 'virtual:nj-map'
 *   <NjMap map={map} countyHref={(value) => `/counties/${value}`} />
 */
export function njMapPlugin(): Plugin {
  let map: NjMap | undefined
  return {
    name: 'jcc-nj-map',
    resolveId(id) {
      return id === VIRTUAL_ID ? RESOLVED_ID : undefined
    },
    load(id) {
      if (id !== RESOLVED_ID) return undefined
      map ??= buildNjMap()
      return `export default ${JSON.stringify(map)}\n`
    },
  }
}
