/**
 * `gc-widgets.js`, the one script partners paste. It stays tiny: it finds our tags on the page,
 * now and as they are added later, and loads only the code for the elements actually used.
 */
const elements: Record<string, () => Promise<unknown>> = {
  'gc-inventory': () => import('./inventory/define.tsx'),
  'gc-featured-carts': () => import('./featured-carts/define.tsx'),
  'gc-vehicle-detail': () => import('./vehicle-detail/define.tsx'),
  'gc-rental-plans': () => import('./rental-plans/define.tsx'),
  'gc-payment-calculator': () => import('./payment-calculator/define.tsx'),
  'gc-contact-form': () => import('./contact-form/define.tsx'),
}
const tags = Object.keys(elements)
const selector = tags.join(',')
const requested = new Set<string>()

function load(tag: string) {
  if (requested.has(tag) || customElements.get(tag)) return
  requested.add(tag)
  elements[tag]!().catch((error: unknown) => {
    requested.delete(tag)
    console.error(`gc-widgets: could not load <${tag}>`, error)
  })
}

function scan(root: Element | Document) {
  if (root instanceof Element && root.localName in elements) load(root.localName)
  for (const element of root.querySelectorAll(selector)) load(element.localName)
}

scan(document)
if (requested.size < tags.length) {
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) if (node instanceof Element) scan(node)
    }
    if (requested.size === tags.length) observer.disconnect()
  })
  observer.observe(document.documentElement, { childList: true, subtree: true })
}
