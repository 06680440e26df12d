import * as z from 'zod/mini'
import { type Interest, interestOptions } from './inquiry.ts'

/**
 * Lead routing's pools (PRODUCT.md, "lead routing"): one per interest a visitor can pick, and
 * `other` for a lead without one.
 */
export const routingPools = [...interestOptions.map((o) => o.value), 'other'] as const satisfies readonly (Interest | 'other')[]
export type RoutingPool = (typeof routingPools)[number]
export const routingPoolLabels: Record<RoutingPool, string> = {
  ...(Object.fromEntries(interestOptions.map((o) => [o.value, o.label])) as Record<Interest, string>),
  other: 'No interest given',
}

/** The pool a lead is routed in: its interest, or `other`. */
export function routingPoolOf(interest: string | null | undefined): RoutingPool {
  return (routingPools as readonly string[]).includes(interest ?? '') ? (interest as RoutingPool) : 'other'
}

/**
 * The owner's settings (PRODUCT.md, "Running the dealership"): one schema for the console's form
 * and the server. Each key is stored as its own row (api/staff/settings.ts, table
 * `dealer_settings`), so adding a setting is a key here, its default, and a section of the
 * settings page (host/staff/settings.tsx): no migration.
 */
export const dealerSettingsSchema = z.object({
  /** Every account must add a passkey or an authenticator app before it can use the console. */
  requireSecondStep: z.boolean('requireSecondStep must be true or false'),
  /**
   * Which accounts take leads, per pool, by account id: a new lead goes to the next of them in
   * turn (api/inquiries/lead-routing.ts). A pool left out or empty leaves its leads unassigned.
   */
  leadRouting: z.partialRecord(
    z.enum(routingPools, `leadRouting keys must be one of: ${routingPools.join(', ')}`),
    z.array(z.int('leadRouting lists account ids').check(z.positive('leadRouting lists account ids')), 'leadRouting lists account ids').check(
      z.maxLength(200, 'leadRouting lists at most 200 accounts a pool'),
    ),
    'leadRouting must be an object',
  ),
})

export type DealerSettings = z.infer<typeof dealerSettingsSchema>

export const defaultDealerSettings: DealerSettings = {
  requireSecondStep: false,
  leadRouting: {},
}

/** Some settings, as a save sends them: the keys left out keep their values. */
export const dealerSettingsChangeSchema = z.partial(dealerSettingsSchema)
export type DealerSettingsChange = z.infer<typeof dealerSettingsChangeSchema>
