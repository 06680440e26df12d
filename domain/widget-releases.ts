/**
 * Pinned widget versions (PRODUCT.md, "pinned widget versions"): beside `/widgets/gc-widgets.js`,
 * always the newest, every release's loader stays at an immutable address, listed with its
 * Subresource Integrity hash in `/widgets/versions.json`, so a careful partner can pin one.
 */

/** What a widget build says about itself (`dist/widgets/release.json`, scripts/build/widget-loader.ts). */
export interface WidgetRelease {
  /** The package's version and the start of the loader's SHA-256: `0.1.0-3f9a1c2b7d`. */
  version: string
  /** The loader's Subresource Integrity hash: `sha384-...`. */
  integrity: string
  /** Every file of the build the loader may load, the loader included, relative to it. */
  files: string[]
}

export const widgetReleaseFile = 'release.json'

/** A release's version as it appears in its address. */
export const releaseVersionPattern = /^\d+\.\d+\.\d+-[0-9a-f]{10}$/

export const widgetPaths = {
  /** Always the newest release. */
  loader: '/widgets/gc-widgets.js',
  versions: '/widgets/versions.json',
  /** One release's loader; its chunks sit beside it, under the same version. */
  pinned: (version: string) => `/widgets/v/${version}/gc-widgets.js`,
}
