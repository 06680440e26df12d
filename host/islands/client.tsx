import { type ComponentType, type ReactNode, startTransition } from 'react'
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

/**
 * Hydrates every island of the page, each as its own React root over the server's HTML; the
 * rest of the page is never touched. Islands that read data share one query cache, filled from
 * the page's #gc-state, so hydration fetches nothing.
 */
export async function hydrateIslands(elements: HTMLElement[]): Promise<void> {
  const names = elements.map((element) => element.dataset.island ?? '')
  const data = names.some((name) => isIslandName(name) && islandNeeds[name].data) ? import('./data.tsx').then((m) => m.dataProvider()) : undefined
  const toasts = names.some((name) => isIslandName(name) && islandNeeds[name].toasts) ? import('../../widgets/shared/toast.tsx') : undefined
  await Promise.all(
    elements.map(async (element, index) => {
      const name = names[index]!
      if (!isIslandName(name)) throw new Error(`This page has an island the site does not know: ${name}`)
      const Component = (await components[name]()) as ComponentType<object>
      const props = JSON.parse(element.dataset.props ?? '{}') as object
      let node: ReactNode = <Component {...props} />
      if (islandNeeds[name].toasts) {
        const { ToastProvider } = await toasts!
        node = <ToastProvider>{node}</ToastProvider>
      }
      if (islandNeeds[name].data) node = (await data!)(node)
      // As a transition, hydration yields to the browser every few milliseconds: the page
      // already shows, and stays responsive meanwhile.
      startTransition(() => {
        hydrateRoot(element, node, { identifierPrefix: islandIdPrefix(index) })
      })
    }),
  )
}
