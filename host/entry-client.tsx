import { enhanceMenu } from './islands/menu.ts'
import './styles/index.ts'

/**
 * The browser's part of every page (docs/decisions/0014-islands.md): the menu button, then the
 * page's islands, if it has any; React and each island's code load only then. Links are
 * ordinary links: each page comes whole from the server.
 */
const root = document.getElementById('root')!
enhanceMenu(root.querySelector('.site-header'))
const islands = [...root.querySelectorAll<HTMLElement>('[data-island]')]
const hydrated = islands.length > 0 ? import('./islands/client.tsx').then((m) => m.hydrateIslands(islands)) : Promise.resolve()
// Lets tests and monitoring know the page is interactive.
void hydrated.then(() => root.setAttribute('data-hydrated', ''))
