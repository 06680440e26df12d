import { createCallerFactory, router } from './init.ts'
import { cartsRouter } from './routers/carts.ts'
import { inquiriesRouter } from './routers/inquiries.ts'
import { rentalsRouter } from './routers/rentals.ts'
import { staffRouter } from './routers/staff.ts'

export const appRouter = router({
  cart: cartsRouter,
  inquiry: inquiriesRouter,
  rental: rentalsRouter,
  staff: staffRouter,
})

/** The only thing a typed client imports from the server. */
export type AppRouter = typeof appRouter

export const createCaller = createCallerFactory(appRouter)
