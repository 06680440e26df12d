import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { demoPages, fillIn, startDemoServer } from './server.ts'

const api = 'https://carts.example.com'
const pinned = { version: '0.1.0-abcdef0123', integrity: 'sha384-pinned' }
const page = (name: string) => fillIn(readFileSync(new URL(`./pages/${name}.html`, import.meta.url), 'utf8'), `${api}/`, name === 'strict-csp' ? pinned : undefined)
const shown = (html: string) =>
  html
    .match(/<pre tabindex="0"><code>([\s\S]*?)<\/code><\/pre>/)?.[1]
    ?.replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&')
const elementsIn = (html: string) => [...html.matchAll(/<(gc-[a-z-]+)\b[^>]*>[\s\S]*?<\/\1>/g)].map((m) => m[0])

describe('the snippet each demo page shows', () => {
  const withSnippet = demoPages.filter((name) => name !== 'index')

  it.each(withSnippet)('%s: the loader from the API origin, then every element the page embeds', (name) => {
    const html = page(name)
    const snippet = shown(html)!
    expect(html).not.toContain('{{')
    // The strict-policy page pins a release by its folder and integrity hash; the others take the newest.
    expect(snippet.split('\n\n')[0]!.split('\n').at(-1)).toBe(
      name === 'strict-csp'
        ? `<script type="module" src="${api}/widgets/v/${pinned.version}/gc-widgets.js" integrity="${pinned.integrity}" crossorigin="anonymous"></script>`
        : `<script type="module" src="${api}/widgets/gc-widgets.js"></script>`,
    )
    const body = html.slice(html.indexOf('<body'), html.indexOf('<section class="snippet">'))
    expect(elementsIn(snippet)).toEqual(elementsIn(body))
    expect(elementsIn(snippet).length).toBeGreaterThan(0)
  })

  it("carries the themed page's custom properties and parts, as the page applies them", () => {
    const html = page('themed')
    const style = html.match(/<style>\n([\s\S]*?)\n\s*<\/style>/)![1]!
    const snippet = shown(html)!
    for (const line of style.split('\n')) expect(snippet).toContain(line.trim())
    expect(snippet.startsWith('<style>\n  /* Theming')).toBe(true)
  })

  it('adds the optional event listener on the quote page, and escapes what it shows', () => {
    const html = page('quote-landing')
    expect(shown(html)).toContain(
      "<script>\n  // Optional: count leads in your own analytics.\n  document.addEventListener('gc-lead-submitted', (event) => {\n    console.log('lead', event.detail.id, event.detail.interest)\n  })\n</script>",
    )
    expect(html).toContain('(event) =&gt; {')
  })
})

describe('the strict-policy demo page', () => {
  it('is served with a policy that names the pinned release\'s folder in script-src and the dealer in connect-src and img-src alone, and shows it', async () => {
    // The dealer's versions.json, as its server answers it.
    const dealer = createServer((_req, res) => res.setHeader('content-type', 'application/json').end(JSON.stringify({ latest: pinned.version, newest: pinned.version, versions: [pinned] })))
    await new Promise<void>((resolve) => dealer.listen(0, '127.0.0.1', resolve))
    const dealerUrl = `http://127.0.0.1:${(dealer.address() as AddressInfo).port}`
    const server = await startDemoServer(0, dealerUrl)
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/strict-csp.html`)
      const policy = res.headers.get('content-security-policy')!
      const withDealer = policy.split('; ').filter((directive) => directive.includes(dealerUrl))
      expect(withDealer).toEqual([`script-src 'self' ${dealerUrl}/widgets/v/${pinned.version}/`, `connect-src ${dealerUrl}`, `img-src 'self' ${dealerUrl}`])
      expect(policy).toContain("default-src 'none'")
      const html = await res.text()
      expect(html.replace(/;\s+/g, '; ')).toContain(`Content-Security-Policy: ${policy}`)
      expect(html).toContain(`src="${dealerUrl}/widgets/v/${pinned.version}/gc-widgets.js" integrity="${pinned.integrity}" crossorigin="anonymous"`)
    } finally {
      await new Promise((resolve) => server.close(resolve))
      await new Promise((resolve) => dealer.close(resolve))
    }
  })
})
