import { Window } from 'happy-dom'

/** A server response parsed as a document, without running its scripts. */
export interface Page {
  status: number
  html: string
  document: Document
  text(selector: string): string | undefined
  all(selector: string): string[]
  meta(name: string): string | undefined
  property(name: string): string | undefined
  jsonLd(): Record<string, unknown>[]
}

export async function fetchPage(url: string, init?: RequestInit): Promise<Page> {
  const res = await fetch(url, { redirect: 'manual', ...init })
  const html = await res.text()
  return parsePage(res.status, html)
}

/**
 * One window parses every page of a test process (scripts and style sheets never run or load): a
 * window of its own per page cost more than the page. A page's documents do not share anything
 * through it: each is a new document.
 */
let parser: DOMParser | undefined

/**
 * A page's inline stylesheet (host/server/document.ts: the site's whole CSS, about 60 kB, the same
 * on every page) is left out of the document, its element kept: no test reads CSS from a parsed
 * page, and parsing it cost a third of each page's parse. `html` keeps it.
 */
export const withoutStylesheetText = (html: string) => html.replace(/(<style[^>]*>)[^]*?(<\/style>)/, '$1$2')

export function parsePage(status: number, html: string): Page {
  // happy-dom's Document implements the DOM's, but its class is not the lib.dom type TypeScript knows.
  // eslint-disable-next-line no-restricted-syntax -- two implementations of one interface, not a hidden type error
  parser ??= new new Window({ settings: { disableJavaScriptEvaluation: true, disableJavaScriptFileLoading: true, disableCSSFileLoading: true } }).DOMParser() as unknown as DOMParser
  const document = parser.parseFromString(withoutStylesheetText(html), 'text/html')
  const clean = (t: string | null | undefined) => t?.replace(/\s+/g, ' ').trim()
  return {
    status,
    html,
    document,
    text: (selector) => clean(document.querySelector(selector)?.textContent),
    all: (selector) => Array.from(document.querySelectorAll(selector)).map((e) => clean(e.textContent) ?? ''),
    meta: (name) => document.querySelector(`meta[name="${name}"]`)?.getAttribute('content') ?? undefined,
    property: (name) => document.querySelector(`meta[property="${name}"]`)?.getAttribute('content') ?? undefined,
    jsonLd: () =>
      Array.from(document.querySelectorAll('script[type="application/ld+json"]')).map((s) => JSON.parse(s.textContent ?? 'null')),
  }
}
