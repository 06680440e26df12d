import { type ComponentType, type ReactNode, startTransition, useEffect } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { type IslandName, type IslandProps, islandIdPrefix, islandNeeds, isIslandName } from './islands.ts'

/**
 * Each island's component, imported when a page has that island: a page downloads the code of
 * its own islands and nothing else (the server renders the same ones, host/islands/server.tsx).
 */
const components: { [N in IslandName]: () => Promise<ComponentType<IslandProps[N]>> } = {
  gallery: () => import('../../widgets/vehicle-detail/gallery.tsx').then((m) => m.Gallery),
  hold: () => import('../../widgets/vehicle-detail/hold-form.tsx').then((m) => m.HoldForm),
  'payment-calculator': () => import('../../widgets/payment-calculator/payment-calculator.tsx').then((m) => m.PaymentCalculator),
  'contact-form': () => import('../../widgets/contact-form/contact-form.tsx').then((m) => m.ContactForm),
  'rental-request': () => import('../../widgets/rental-request/rental-request.tsx').then((m) => m.RentalRequest),
  'book-visit': () => import('../../widgets/book-visit/book-visit.tsx').then((m) => m.BookVisit),
}

// Islands that read data share one query cache, filled from the page's #gc-state, so hydration
// fetches nothing; the toasts' region is one module. Each is imported by the first island that needs it.
let data: Promise<(node: ReactNode) => ReactNode> | undefined
let toasts: Promise<typeof import('../../widgets/shared/toast.tsx')> | undefined

/**
 * Hydrates one island of the page, as its own React root over the server's HTML (the rest of the
 * page is never touched); `index` is its place among the page's islands, which the server gave
 * its `useId` prefix. Resolves once the island is hydrated and its effects have run, so a form
 * sent meanwhile (host/islands/reach.ts) can be sent again through it.
 */
export async function hydrateIsland(element: HTMLElement, index: number): Promise<void> {
  const name = element.dataset.island ?? ''
  if (!isIslandName(name)) throw new Error(`This page has an island the site does not know: ${name}`)
  const needs = islandNeeds[name]
  const provide = needs.data ? (data ??= import('./data.tsx').then((m) => m.dataProvider())) : undefined
  const toast = needs.toasts ? (toasts ??= import('../../widgets/shared/toast.tsx')) : undefined
  const Component = (await components[name]()) as ComponentType<object>
  const props = JSON.parse(element.dataset.props ?? '{}') as object
  let node: ReactNode = <Component {...props} />
  if (toast) {
    const { ToastProvider } = await toast
    node = <ToastProvider>{node}</ToastProvider>
  }
  if (provide) node = (await provide)(node)
  await new Promise<void>((resolve) => {
    // As a transition, hydration yields to the browser every few milliseconds: the page
    // already shows, and stays responsive meanwhile.
    startTransition(() => {
      hydrateRoot(element, <Hydrated onHydrated={resolve}>{node}</Hydrated>, { identifierPrefix: islandIdPrefix(index) })
    })
  })
}

/**
 * Says when the island under it has hydrated: a parent's effect runs after its children's, and
 * renders no element of its own, so the server's HTML and ids are the same with or without it.
 */
function Hydrated({ onHydrated, children }: { onHydrated: () => void; children: ReactNode }) {
  useEffect(onHydrated, [onHydrated])
  return children
}
