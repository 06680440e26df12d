import { useQuery } from '@tanstack/react-query'
import { business } from '../../domain/business.ts'
import { formatPrice, type GolfCartDetail } from '../../domain/golf-cart.ts'
import { specificationsFor } from '../../domain/specifications.ts'
import { useTRPC } from '../../widgets/shared/api.tsx'
import { VehicleDetail, vehicleQuery } from '../../widgets/vehicle-detail/vehicle-detail.tsx'
import { callPrompt, useDocumentMeta, type PageMeta } from '../meta.ts'
import type { Params, PageProps, Route } from '../page.ts'
import { paths } from '../../domain/site-paths.ts'
import { breadcrumbs, vehicleProduct } from '../structured-data.ts'

function meta(siteUrl: string, slug: string, cart: GolfCartDetail | null | undefined): PageMeta {
  if (!cart) {
    return {
      title: 'Vehicle Not Found',
      description: `This golf cart is no longer listed. Browse the carts in stock at ${business.name}. ${callPrompt}`,
      keywords: ['golf cart inventory'],
      pageType: 'vehicle',
      path: paths.vehicle(slug),
      noindex: true,
    }
  }
  const spec = specificationsFor(cart.title)
  return {
    title: cart.title,
    description: `${cart.title}, starting at ${formatPrice(cart.price)}. ${spec.seats.max} seats, ${spec.topSpeedMph} mph, ${spec.battery.toLowerCase()} battery. ${callPrompt}`,
    keywords: [cart.title, `${spec.brand} golf cart`, 'electric golf cart for sale NJ', 'new golf cart'],
    pageType: 'vehicle',
    path: paths.vehicle(cart.slug),
    image: {
      path: cart.imageUrl.replace(/\.svg$/, '.png'),
      width: 800,
      height: 600,
      alt: cart.title,
    },
    jsonLd: [
      vehicleProduct(cart, siteUrl),
      breadcrumbs(siteUrl, [
        { name: 'Home', path: paths.home },
        { name: 'Inventory', path: paths.inventory },
        { name: cart.title, path: paths.vehicle(cart.slug) },
      ]),
    ],
  }
}

function VehiclePage({ params }: PageProps) {
  const slug = params.slug ?? ''
  const trpc = useTRPC()
  const { data } = useQuery(vehicleQuery(trpc, slug))
  useDocumentMeta(meta('', slug, data))
  return (
    <section className="section">
      <div className="container">
        <VehicleDetail slug={slug} homeHref={paths.home} inventoryHref={paths.inventory} contactHref={paths.quote} />
      </div>
    </section>
  )
}

export const vehicleRoute: Route = {
  Page: VehiclePage,
  meta: ({ siteUrl, queryClient, trpc }, params: Params) =>
    meta(siteUrl, params.slug ?? '', queryClient.getQueryData(vehicleQuery(trpc, params.slug ?? '').queryKey)),
  async prefetch({ queryClient, trpc }, params) {
    const slug = params.slug ?? ''
    let cart: GolfCartDetail | null
    try {
      cart = await queryClient.fetchQuery(vehicleQuery(trpc, slug))
    } catch {
      // A failure to answer (the database down) stays in the cache as an error: the page renders
      // with a retry button and the server answers 503.
      return
    }
    if (!cart) return { status: 404 }
    // Links in the other slug reading (docs/PRODUCT.md, "Slugs") move permanently to the canonical one.
    if (cart.slug !== slug) return { status: 301, redirect: paths.vehicle(cart.slug) }
  },
}
