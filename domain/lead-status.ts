/**
 * Where a lead stands (PRODUCT.md, "leads"), in the order staff work it. Shared by the API, the
 * console and `npm run leads`; no schema library, so any page can import it.
 */
export const leadStatuses = ['new', 'contacted', 'quoted', 'won', 'lost'] as const
export type LeadStatus = (typeof leadStatuses)[number]

export const leadStatusLabels: Record<LeadStatus, string> = {
  new: 'New',
  contacted: 'Contacted',
  quoted: 'Quoted',
  won: 'Won',
  lost: 'Lost',
}

/**
 * A lead nobody answers within the hour is usually lost (issue #18): the dashboard's share of
 * leads answered (a reply or a logged call, api/leads/lead-replies.ts) within this time.
 */
export const answerWithinMs = 60 * 60 * 1000

/** How often an open inbox or lead page asks again, so new leads and colleagues' changes appear (decision 0019). */
export const leadPollMs = 5000

/** The dealer's clock: days and weeks of the inbox's filters and the dashboard are New Jersey's. */
export const dealerTimeZone = 'America/New_York'

/** Where a lead came from when neither an embed label nor a page was sent (the bare REST API). */
export const unknownSource = 'not given'

/** How one notification of a lead went: sent, waiting its turn, being sent, or failed and waiting to retry. */
export type DeliveryState = 'sent' | 'queued' | 'sending' | 'failed'

/** The notifications' joint state, as the inbox shows it in one word. */
export function deliverySummary(states: readonly DeliveryState[]): DeliveryState | 'none' {
  if (states.length === 0) return 'none'
  if (states.includes('failed')) return 'failed'
  if (states.every((s) => s === 'sent')) return 'sent'
  return states.includes('sending') ? 'sending' : 'queued'
}

/** A lead with the same email or phone as another within this many days is a repeat of it. */
export const repeatWindowDays = 30

/** Caught spam is kept this many days in the Spam view, then deleted. */
export const spamKeptDays = 30
