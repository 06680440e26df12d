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

export function parsePage(status: number, html: string): Page {
  const window = new Window({ settings: { disableJavaScriptEvaluation: true, disableJavaScriptFileLoading: true, disableCSSFileLoading: true } })
  // happy-dom's Document implements the DOM's, but its class is not the lib.dom type TypeScript knows.
  // eslint-disable-next-line no-restricted-syntax -- two implementations of one interface, not a hidden type error
  const document = new window.DOMParser().parseFromString(html, 'text/html') as unknown as Document
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
