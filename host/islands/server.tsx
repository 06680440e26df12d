import type { QueryClient } from '@tanstack/react-query'
import type { ComponentType, ReactNode } from 'react'
import { renderToString } from 'react-dom/server'
import { ContactForm } from '../../widgets/contact-form/contact-form.tsx'
import { RentalRequest } from '../../widgets/rental-request/rental-request.tsx'
import { PaymentCalculator } from '../../widgets/payment-calculator/payment-calculator.tsx'
import { type ApiOptions, ApiProvider } from '../../widgets/shared/api.tsx'
import type { IslandHost } from '../../widgets/shared/island.tsx'
import { ToastProvider } from '../../widgets/shared/toast.tsx'
import { Gallery } from '../../widgets/vehicle-detail/gallery.tsx'
import { HoldForm } from '../../widgets/vehicle-detail/hold-form.tsx'
import { BookVisit } from '../../widgets/book-visit/book-visit.tsx'
import { type IslandName, type IslandProps, islandIdPrefix, islandNeeds, isIslandName } from './islands.ts'

/** Each island's component; the browser imports the same ones lazily (host/islands/client.tsx). */
const components: { [N in IslandName]: ComponentType<IslandProps[N]> } = {
  gallery: Gallery,
  hold: HoldForm,
  'payment-calculator': PaymentCalculator,
  'contact-form': ContactForm,
  'rental-request': RentalRequest,
  'book-visit': BookVisit,
}

/** The toasts' region renders in the island (host/islands/client.tsx does the same). */
function withToasts(name: IslandName, node: ReactNode): ReactNode {
  return islandNeeds[name].toasts ? <ToastProvider>{node}</ToastProvider> : node
}

export interface IslandPlacer {
  host: IslandHost
  /** Whether a placed island reads the server's data (then the page carries #gc-state). */
  needsData(): boolean
  /** The page's HTML with each island's marker filled with the island, rendered as its own root. */
  fill(html: string): string
}

/**
 * Islands for one page render. The page renders first, each island as an empty marker
 * (`<div data-island="name" data-props="{...}">`); then each island renders alone, with its own
 * id prefix, exactly as the browser will hydrate it, and fills its marker.
 */
export function placeIslands(pageUrl: string, queryClient: QueryClient, api: ApiOptions): IslandPlacer {
  const placed: { name: IslandName; props: object }[] = []
  const host: IslandHost = {
    pageUrl,
    place(name, props) {
      if (!isIslandName(name)) throw new Error(`There is no island called ${name} (host/islands/islands.ts)`)
      const index = placed.push({ name, props }) - 1
      return <div data-island={name} data-props={JSON.stringify(props)} dangerouslySetInnerHTML={{ __html: `<!--gc-island ${index}-->` }} />
    },
  }
  const render = (index: number) => {
    const { name, props } = placed[index]!
    const Component = components[name] as ComponentType<object>
    return renderToString(
      <ApiProvider apiBase="" queryClient={queryClient} api={api}>
        {withToasts(name, <Component {...props} />)}
      </ApiProvider>,
      { identifierPrefix: islandIdPrefix(index) },
    )
  }
  return {
    host,
    needsData: () => placed.some(({ name }) => islandNeeds[name].data),
    fill: (html) => html.replace(/<!--gc-island (\d+)-->/g, (_, index: string) => render(Number(index))),
  }
}
