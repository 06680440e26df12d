/**
 * What the server's renderer gets for `react-dom/client` (vite.config.ts aliases it in the
 * server build): components that hydrate themselves import React's browser renderer, which the
 * server never calls, and bundled in it ran its whole module at every start (about 100 ms,
 * docs/decisions/0013-lean-start.md). Calling either here is a bug: they run in the browser.
 */
function browserOnly(name: string): never {
  throw new Error(`react-dom/client's ${name} runs in the browser, not in the server's renderer`)
}

export const hydrateRoot = (): never => browserOnly('hydrateRoot')
export const createRoot = (): never => browserOnly('createRoot')
