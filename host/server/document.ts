import { createHash } from 'node:crypto'
import { jsonForScript } from '../meta.ts'

export interface PageAssets {
  /** Module scripts to run once the page has loaded. */
  scripts: string[]
  /** Stylesheets to link (development). */
  styles: string[]
  /**
   * The built CSS, inlined: at about 4 KB compressed it costs less than the round trip a
   * render-blocking stylesheet would (Lighthouse measured 150 ms on a phone).
   */
  inlineCss?: string
}

/**
 * The page is complete without JavaScript (links, the contact form and the pager all work as
 * plain HTML), so the script that makes it interactive is fetched only once the page has
 * loaded: it never competes with the text and images a visitor is waiting for. Lighthouse
 * measured this as the difference between 99 and 100 on phones.
 */
function loadAfterPage(scripts: string[]): string {
  const add = scripts
    .map((src) => `s=document.createElement('script');s.type='module';s.src=${JSON.stringify(src)};document.head.appendChild(s)`)
    .join(';')
  return `addEventListener('load',function(){var s;${add}})`
}

/**
 * The two inline tags every page carries, the same for every page of one build: the
 * Content-Security-Policy allows exactly these by their hashes (`inlineHashes`), so a page's
 * bytes never change from one answer to the next and can be kept and served as they are.
 */
function inlineTags(assets: PageAssets): { style?: string; script?: string } {
  return {
    style: assets.inlineCss || undefined,
    script: assets.scripts.length > 0 ? loadAfterPage(assets.scripts) : undefined,
  }
}

/** The policy's `'sha256-...'` source for an inline tag's text (none for none). */
export function sha256Source(text: string | undefined): string | undefined {
  return text ? `'sha256-${createHash('sha256').update(text).digest('base64')}'` : undefined
}

/** The sources for a page's inline style and script, for the policy's style-src and script-src. */
export function inlineHashes(assets: PageAssets): { style?: string; script?: string } {
  const tags = inlineTags(assets)
  return { style: sha256Source(tags.style), script: sha256Source(tags.script) }
}

/**
 * The HTML around a rendered page. The data for hydration travels as a JSON data block, not as
 * a script, so it never runs and needs no Content-Security-Policy exception; `jsonForScript`
 * escapes anything that could end the block early.
 */
export function renderDocument(page: { head: string; html: string; state: unknown; assets: PageAssets }): string {
  const { assets } = page
  const inline = inlineTags(assets)
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    ${page.head}
    <link rel="icon" href="/favicon.svg" type="image/svg+xml">
    <link rel="apple-touch-icon" href="/images/logo.png">
${inline.style ? `    <style>${inline.style}</style>` : ''}
${assets.styles.map((href) => `    <link rel="stylesheet" href="${href}">`).join('\n')}
${inline.script ? `    <script>${inline.script}</script>` : ''}
  </head>
  <body>
    <div id="root" class="gc-theme">${page.html}</div>
${page.state === undefined ? '' : `    <script id="gc-state" type="application/json">${jsonForScript(page.state)}</script>\n`}  </body>
</html>
`
}
