import { useQuery } from '@tanstack/react-query'
import { business } from '../../domain/business.ts'
import { featuredCount, formatPrice, type GolfCartDetail } from '../../domain/golf-cart.ts'
import { cartSpecifications } from '../../domain/cart-facts.ts'
import { useTRPC } from '../../widgets/shared/api.tsx'
import { VehicleDetail, vehicleQuery } from '../../widgets/vehicle-detail/vehicle-detail.tsx'
import { callPrompt, type PageMeta, type SocialImage, useDocumentMeta } from '../meta.ts'
import { type CartPhoto, photoHeightAt, photoPath, photoSizes, photoSrcSet, photoWidthFor } from '../../domain/photos.ts'
import type { MetaContext, Params, PageProps, Route } from '../page.ts'
import { paths } from '../../domain/site-paths.ts'
import { breadcrumbs, vehicleProduct } from '../structured-data.ts'

/** A photo for social cards: its JPEG at 1200 px (or its largest), which every scraper reads. */
function socialImage(photo: CartPhoto): SocialImage {
  const width = photoWidthFor(photo, 1200)
  return { path: photoPath(photo.key, width, 'jpeg'), width, height: photoHeightAt(photo, width), alt: photo.alt }
}

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
  const spec = cartSpecifications(cart)
  return {
    title: cart.title,
    description: `${cart.title}, starting at ${formatPrice(cart.price)}. ${spec.seats.max} seats, ${spec.topSpeedMph} mph, ${spec.battery.toLowerCase()} battery. ${callPrompt}`,
    keywords: [cart.title, `${spec.brand} golf cart`, 'electric golf cart for sale NJ', 'new golf cart'],
    pageType: 'vehicle',
    path: paths.vehicle(cart.slug),
    // A sold cart's page stays for visitors who follow a link, not for search results.
    ...(cart.status === 'sold' && { noindex: true }),
    ...(cart.photos.length > 0
      ? {
          image: socialImage(cart.photos[0]!),
          moreImages: cart.photos.slice(1, 6).map(socialImage),
          preloadImage: { type: 'image/avif', srcSet: photoSrcSet(cart.photos[0]!, 'avif'), sizes: photoSizes.gallery },
        }
      : {
          image: {
            path: cart.imageUrl.replace(/\.svg$/, '.png'),
            width: 800,
            height: 600,
            alt: cart.title,
          },
        }),
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
        <VehicleDetail
          slug={slug}
          homeHref={paths.home}
          inventoryHref={paths.inventory}
          contactHref={paths.quoteForm}
          vehicleHref={paths.vehicle}
        />
      </div>
    </section>
  )
}

/**
 * Whether a slug that found no cart belonged to one sold more than SOLD_VISIBLE_DAYS ago: gone for
 * good, 410 (api/http/errors.ts, GoneError). Asked only for a missing cart; the answer is not kept.
 */
async function soldAndGone({ queryClient, trpc }: MetaContext, slug: string): Promise<boolean> {
  const options = trpc.cart.bySlug.queryOptions({ slug })
  const gone = await queryClient.fetchQuery(options).then(
    () => false,
    (error: unknown) => (error as { cause?: { name?: unknown } }).cause?.name === 'GoneError',
  )
  queryClient.removeQueries({ queryKey: options.queryKey, exact: true })
  return gone
}

export const vehicleRoute: Route = {
  Page: VehiclePage,
  meta: ({ siteUrl, queryClient, trpc }, params: Params) =>
    meta(siteUrl, params.slug ?? '', queryClient.getQueryData(vehicleQuery(trpc, params.slug ?? '').queryKey)),
  async prefetch(context, params) {
    const { queryClient, trpc } = context
    const slug = params.slug ?? ''
    let cart: GolfCartDetail | null
    try {
      cart = await queryClient.fetchQuery(vehicleQuery(trpc, slug))
    } catch {
      // A failure to answer (the database down) stays in the cache as an error: the page renders
      // with a retry button and the server answers 503.
      return
    }
    if (!cart) return { status: (await soldAndGone(context, slug)) ? 410 : 404 }
    // Links in the other slug reading (docs/PRODUCT.md, "Slugs") move permanently to the canonical one.
    if (cart.slug !== slug) return { status: 301, redirect: paths.vehicle(cart.slug) }
    if (cart.status === 'sold') await queryClient.prefetchQuery(trpc.cart.similar.queryOptions({ slug: cart.slug, limit: featuredCount }))
  },
}
