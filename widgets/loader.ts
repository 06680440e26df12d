/**
 * `gc-widgets.js`, the one script partners paste. It stays tiny: it finds our tags on the page,
 * now and as they are added later, inside other components' shadow roots too, and loads only
 * the code for the elements actually used.
 *
 * It must also run as a classic script (a `<script>` pasted without `type="module"`), so it has
 * no static imports and no `import.meta`; the build wraps it in a function, so nothing leaks into
 * the page's globals, and fills in `__GC_ELEMENTS__` (scripts/build/widget-loader.ts): for each
 * tag, its element's chunk and the shared chunks that chunk imports, relative to this file.
 */
declare const __GC_ELEMENTS__: Record<string, { file: string; preload: readonly string[] }>

const elements = new Map(Object.entries(__GC_ELEMENTS__))
const requested = new Set<string>()
const allRequested = () => requested.size === elements.size

/**
 * The tag that loaded this file: `currentScript` for a classic script; a module script has none,
 * so the last `<script>` whose file is gc-widgets.js. Without it (a bundler imported the loader)
 * nothing is preloaded and each element's shared code simply arrives one round trip later.
 */
const classicScript = document.currentScript as HTMLScriptElement | null
const loaderScript =
  classicScript ?? [...document.querySelectorAll<HTMLScriptElement>('script[src]')].reverse().find((s) => /\/gc-widgets\.js(\?|#|$)/.test(s.src))
const preloaded = new Set<string>()

/** The shared chunks an element's code imports, fetched alongside it instead of after it. */
function preload(tag: string) {
  if (!loaderScript) return
  for (const file of elements.get(tag)!.preload) {
    const href = new URL(file, loaderScript.src).href
    if (preloaded.has(href)) continue
    preloaded.add(href)
    const link = document.createElement('link')
    link.rel = 'modulepreload'
    link.crossOrigin = ''
    link.href = href
    // A page whose Content-Security-Policy trusts our script by nonce trusts these too.
    if (loaderScript.nonce) link.nonce = loaderScript.nonce
    document.head.append(link)
  }
}

function load(tag: string) {
  if (requested.has(tag) || customElements.get(tag)) return
  requested.add(tag)
  preload(tag)
  // A module resolves the chunk against its own address; a classic script from another origin
  // resolves against about:blank, so it is given the full address.
  const file = elements.get(tag)!.file
  import(/* @vite-ignore */ classicScript ? new URL(file, classicScript.src).href : file).catch((error: unknown) => {
    requested.delete(tag)
    console.error(`gc-widgets: could not load <${tag}>`, error)
  })
}

const observer = new MutationObserver((records) => {
  for (const record of records) {
    for (const node of record.addedNodes) if (node instanceof Element) scan(node)
  }
  if (allRequested()) observer.disconnect()
})
const watched = new WeakSet<Node>()

/** Watches a document or shadow root for elements added to it later. */
function watch(root: Document | ShadowRoot) {
  if (allRequested() || watched.has(root)) return
  watched.add(root)
  observer.observe(root, { childList: true, subtree: true })
}

/** Loads our tags in this subtree, and enters every shadow root in it (ours hold none). */
function scan(root: Element | Document | ShadowRoot) {
  if (root instanceof Element) visit(root)
  for (const element of root.querySelectorAll('*')) visit(element)
}

function visit(element: Element) {
  if (elements.has(element.localName)) return load(element.localName)
  if (element.shadowRoot && !watched.has(element.shadowRoot)) {
    watch(element.shadowRoot)
    scan(element.shadowRoot)
  }
}

/**
 * Components (Lit, Stencil, hand-written) attach their shadow roots whenever they like, often
 * after this script ran and before they render into them. Watching each root from the moment
 * it exists finds our elements in it with no call from the partner (docs/CONTRACTS.md, "The
 * loader"), closed roots included. Once every tag is loaded the wrapper only passes through.
 */
// eslint-disable-next-line @typescript-eslint/unbound-method -- kept unbound on purpose: the wrapper below calls it with .call(this)
const attachShadow = Element.prototype.attachShadow
Element.prototype.attachShadow = function (this: Element, init: ShadowRootInit) {
  const root = attachShadow.call(this, init)
  if (!elements.has(this.localName)) watch(root)
  return root
}

scan(document)
watch(document)
