import { rentalQuoteInput } from '../../../domain/rental-request.ts'
import { publicProcedure, router } from '../init.ts'

export const rentalsRouter = router({
  /**
   * A rental request's price, end date, delivery estimate for a ZIP (or why there is none) and
   * whether a cart of the type is free on every day: what the request form shows as the visitor
   * types. Reads the same reservations the staff's calendar writes; never cached.
   */
  quote: publicProcedure.input(rentalQuoteInput).query(({ ctx, input }) => ctx.rentals.quote(input)),
})
