import { createCallerFactory, router } from './init.ts'
import { alertsRouter } from './routers/alerts.ts'
import { appointmentsRouter } from './routers/appointments.ts'
import { cartsRouter } from './routers/carts.ts'
import { depositsRouter } from './routers/deposits.ts'
import { inquiriesRouter } from './routers/inquiries.ts'
import { rentalsRouter } from './routers/rentals.ts'
import { staffRouter } from './routers/staff.ts'

export const appRouter = router({
  alert: alertsRouter,
  appointment: appointmentsRouter,
  cart: cartsRouter,
  deposit: depositsRouter,
  inquiry: inquiriesRouter,
  rental: rentalsRouter,
  staff: staffRouter,
})

/** The only thing a typed client imports from the server. */
export type AppRouter = typeof appRouter

export const createCaller = createCallerFactory(appRouter)
