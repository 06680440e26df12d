import { useQuery } from '@tanstack/react-query'
import { business } from '../../domain/business.ts'
import { formatPrice, type GolfCartDetail } from '../../domain/golf-cart.ts'
import { specificationsFor } from '../../domain/specifications.ts'
import { useTRPC } from '../../widgets/shared/api.tsx'
import { VehicleDetail } from '../../widgets/vehicle-detail/vehicle-detail.tsx'
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
  const { data } = useQuery(trpc.cart.bySlug.queryOptions({ slug }))
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
    meta(siteUrl, params.slug ?? '', queryClient.getQueryData(trpc.cart.bySlug.queryKey({ slug: params.slug ?? '' }))),
  async prefetch({ queryClient, trpc }, params) {
    const options = trpc.cart.bySlug.queryOptions({ slug: params.slug ?? '' })
    try {
      const cart = await queryClient.fetchQuery(options)
      // Links in the other slug reading (SPEC section 2) move permanently to the canonical one.
      if (cart.slug !== params.slug) return { status: 301, redirect: paths.vehicle(cart.slug) }
    } catch (error) {
      // A TRPCError, told apart by its code so the browser bundle needs no server code. Any
      // other failure (the database down) stays in the cache as an error: the page renders with
      // a retry button and the server answers 503.
      const code = (error as { code?: unknown }).code
      if (code !== 'NOT_FOUND' && code !== 'BAD_REQUEST') return
      // Cached as "no cart", so the page hydrates as Vehicle Not Found without asking again.
      queryClient.setQueryData(options.queryKey, null as unknown as GolfCartDetail)
      return { status: 404 }
    }
  },
}
