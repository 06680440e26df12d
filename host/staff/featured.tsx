import * as z from 'zod/mini'
import { statusLabels } from '../../domain/cart-values.ts'
import { staffPaths } from '../../domain/staff-paths.ts'
import { type StaffPageContext, type StaffPageProps, staffPage } from './page.ts'

/**
 * `/staff/featured`: the featured carts in the order the home page and `gc-featured-carts` show
 * them (PRODUCT.md, "featured"), each moved up, down or to a place with a plain form post
 * (`staff.cart.setFeaturedOrder`), so the order is chosen without script, on a phone too. A cart
 * on hold, sold or in draft keeps its place and says it is not shown.
 */
async function loadFeatured(context: StaffPageContext) {
  return { carts: await context.caller.staff.cart.featured() }
}

/**
 * A move as posted: the cart, which button, and the place typed for "Move". Not a procedure's
 * input (the page computes the whole order for `staff.cart.setFeaturedOrder`), so its own schema.
 */
const featuredMove = z.object({
  id: z.int('That is not a featured cart').check(z.minimum(1, 'That is not a featured cart')),
  move: z.enum(['up', 'down', 'place'], 'Choose Up, Down or Move'),
  place: z.optional(z.int('Give the place as a whole number')),
})

type FeaturedData = Awaited<ReturnType<typeof loadFeatured>>

function FeaturedPage({ data, posted }: StaffPageProps<FeaturedData>) {
  const { carts } = data
  return (
    <div className="staff-featured">
      <h1>Featured carts</h1>
      <p>
        The home page shows the first three that are in stock, in this order; partners’ featured lists show as many as
        they ask for. A cart on hold, sold or in draft keeps its place but is not shown until it is in stock again.
        Feature a cart, or stop featuring it, on its page or in the <a href={staffPaths.console}>inventory</a>.
      </p>
      {posted?.message && (
        <p className="staff-alert staff-alert--error" role="alert">
          {posted.message}
        </p>
      )}
      {carts.length === 0 ? (
        <p>No cart is featured.</p>
      ) : (
        <ol className="staff-featured__list">
          {carts.map((cart, index) => {
            const place = `place-${cart.id}`
            const mine = posted?.values.id === String(cart.id) ? posted : undefined
            const error = mine?.errors.place
            return (
              <li key={cart.id} id={`featured-${cart.id}`} className="staff-featured__cart">
                <div className="staff-featured__facts">
                  <span className="staff-featured__place" aria-hidden="true">
                    {index + 1}
                  </span>
                  <a href={staffPaths.cart(cart.id)}>{cart.title}</a>
                  <span className="staff-hint">
                    {cart.stockNumber}
                    {cart.status !== 'available' && ` · ${statusLabels[cart.status]}: not shown`}
                  </span>
                </div>
                <form method="post" action={staffPaths.featured} className="staff-featured__moves">
                  <input type="hidden" name="id" value={cart.id} />
                  <button className="staff-button staff-button--small staff-button--quiet" type="submit" name="move" value="up" disabled={index === 0}>
                    Up<span className="gc-sr-only">: move {cart.title} up</span>
                  </button>
                  <button
                    className="staff-button staff-button--small staff-button--quiet"
                    type="submit"
                    name="move"
                    value="down"
                    disabled={index === carts.length - 1}
                  >
                    Down<span className="gc-sr-only">: move {cart.title} down</span>
                  </button>
                </form>
                <form method="post" action={staffPaths.featured} className="staff-featured__to">
                  <input type="hidden" name="id" value={cart.id} />
                  <label htmlFor={place}>
                    Place<span className="gc-sr-only"> of {cart.title}</span>
                  </label>
                  <input
                    id={place}
                    name="place"
                    type="number"
                    inputMode="numeric"
                    min={1}
                    max={carts.length}
                    required
                    defaultValue={mine?.values.place ?? index + 1}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={error ? `${place}-error` : undefined}
                  />
                  <button className="staff-button staff-button--small" type="submit" name="move" value="place">
                    Move<span className="gc-sr-only"> {cart.title} there</span>
                  </button>
                  {error && (
                    <p className="staff-error" id={`${place}-error`}>
                      {error}
                    </p>
                  )}
                </form>
              </li>
            )
          })}
        </ol>
      )}
    </div>
  )
}

export const featuredPage = staffPage({
  path: staffPaths.featured,
  roles: { get: ['sales', 'see what is featured'], post: ['sales', 'change the order of what is featured'] },
  title: () => 'Featured carts',
  load: loadFeatured,
  Page: FeaturedPage,
  /** One cart up, down or to a place, in the order as it is now (another person's move kept). */
  async post(context, form) {
    const carts = await context.caller.staff.cart.featured()
    const ids = carts.map((cart) => cart.id)
    const parsed = context.parse(featuredMove)
    const placeRefused = () => {
      const message = `Give a place from 1 to ${ids.length}.`
      return { status: 400, posted: { values: form, errors: { place: message }, message } }
    }
    if (!parsed.ok && !parsed.refusal.posted.errors.id) return parsed.refusal.posted.errors.place ? placeRefused() : parsed.refusal
    const id = parsed.ok ? parsed.value.id : undefined
    const from = id === undefined ? -1 : ids.indexOf(id)
    if (!parsed.ok || id === undefined || from < 0) {
      return { status: 409, posted: { values: form, errors: {}, message: 'That cart is no longer featured: here is the order as it is now.' } }
    }
    const { move, place: typed } = parsed.value
    const place = move === 'up' ? from : move === 'down' ? from + 2 : typed
    if (place === undefined || place < 1 || place > ids.length) return placeRefused()
    ids.splice(from, 1)
    ids.splice(place - 1, 0, id)
    try {
      await context.caller.staff.cart.setFeaturedOrder({ ids })
    } catch (error) {
      return context.refused(error, form)
    }
    return { redirect: `${staffPaths.featured}#featured-${id}`, notice: `${carts[from]!.title} is now number ${place}.` }
  },
})
