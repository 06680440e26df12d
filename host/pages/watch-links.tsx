import { useQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { business } from '../../domain/business.ts'
import { alertRules } from '../../domain/cart-alerts.ts'
import { watchToken } from '../../domain/cart-alerts-schema.ts'
import { formatPrice } from '../../domain/golf-cart.ts'
import { paths } from '../../domain/site-paths.ts'
import type { WatchLink, WatchLinkSubject } from '../../api/alerts/watch-store.ts'
import { useTRPC } from '../../widgets/shared/api.tsx'
import { usePostedForm } from '../form-state.ts'
import { type PageMeta, useDocumentMeta } from '../meta.ts'
import type { PageProps, Route } from '../page.ts'

/**
 * The pages a price alert's emails link to (PRODUCT.md, "watching a cart or a search"): the
 * confirmation and the unsubscribe link, each with its token in the query. Opening either
 * changes nothing, so a mail scanner that fetches every link confirms or ends nothing: the page's
 * button posts (host/server/watch-posts.ts), as does a mail client's one-click unsubscribe
 * (RFC 8058). Neither page is indexed or kept (host/server/watch-posts.ts renders them).
 */
const tokenOf = (search: string | URLSearchParams) => {
  const token = new URLSearchParams(search).get('token') ?? ''
  return watchToken.safeParse(token).success ? token : undefined
}

/** The head's title is the page's, whatever the link's state (its heading says that). */
const meta = (title: string, path: string): PageMeta => ({
  title,
  description: `Price and new-cart alerts from ${business.name}.`,
  keywords: [business.name],
  pageType: 'alert',
  path,
  noindex: true,
})

/** "the 2025 Denago EV City ($8,995)", as a link to it; or the search in words. */
function Subject({ subject }: { subject: WatchLinkSubject }) {
  if (subject.kind === 'cart') {
    return (
      <>
        the <a href={subject.href}>{subject.title}</a> (now {formatPrice(subject.price)})
      </>
    )
  }
  return (
    <>
      new golf carts like these: <a href={subject.href}>{subject.description}</a>
    </>
  )
}

function Page({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="section">
      <div className="container prose watch-link">
        <h1 className="page-title">{title}</h1>
        {children}
      </div>
    </section>
  )
}

function useLink(purpose: 'confirmation' | 'subscription', token: string | undefined): WatchLink | undefined {
  const trpc = useTRPC()
  const { data } = useQuery({ ...trpc.alert[purpose].queryOptions({ token: token ?? '' }), enabled: token !== undefined })
  return token === undefined ? { state: 'unknown' } : data
}

function ConfirmPage({ search }: PageProps) {
  const token = tokenOf(search)
  const link = useLink('confirmation', token)
  const title = !link || link.state === 'unknown' ? 'This link has expired' : link.state === 'pending' ? 'Confirm your alert' : 'Your alert is on'
  useDocumentMeta(confirmMeta)
  if (!link || link.state === 'unknown' || !link.subject) {
    return (
      <Page title={title}>
        <p>
          A confirmation link works for {alertRules.confirmWithinDays} days, from the email we sent. Nothing will be sent to you for it. To set
          the alert up again, use "Tell me if the price drops" on the cart's page or "Tell me about new carts like these" on the{' '}
          <a href={paths.inventory}>inventory</a>.
        </p>
      </Page>
    )
  }
  const { subject } = link
  if (link.state === 'pending' && subject.kind === 'cart' && subject.status === 'sold') {
    return (
      <Page title="This cart has been sold">
        <p>
          The <a href={subject.href}>{subject.title}</a> was sold before the alert was turned on, so there is nothing to watch. Its page
          shows carts like it in stock.
        </p>
      </Page>
    )
  }
  if (link.state === 'pending') {
    return (
      <Page title={title}>
        <p>
          You asked for an alert about <Subject subject={subject} />. Nothing is sent until you confirm.
        </p>
        <form method="post" action={paths.watchLink('confirm', token!)}>
          <button type="submit" className="gc-button gc-button--primary">
            Yes, turn the alert on
          </button>
        </form>
        <p className="fine-print">Every alert has a one-click unsubscribe link, and your address is deleted when the alert ends.</p>
      </Page>
    )
  }
  return (
    <Page title={link.state === 'ended' ? 'This alert has ended' : title}>
      <p>
        {link.state === 'ended' ? 'This alert has ended' : 'You will hear from us'} about <Subject subject={subject} />
        {subject.kind === 'cart'
          ? `: within a minute of its price dropping${subject.status === 'hold' ? ' or its hold ending' : ''}, at most once a day.`
          : ': when one is listed, at most one email a day.'}
      </p>
      <p className="fine-print">Each alert email has a link to stop it in one click.</p>
    </Page>
  )
}

function StopPage({ search }: PageProps) {
  const token = tokenOf(search)
  const done = usePostedForm()?.watchLink
  const found = useLink('subscription', done ? undefined : token)
  const link = done ?? found
  const stopped = done !== undefined
  const title = stopped ? 'Alert stopped' : !link || link.state === 'unknown' ? 'No alert at this link' : 'Stop this alert?'
  useDocumentMeta(stopMeta)
  if (stopped || !link || link.state === 'unknown' || !link.subject) {
    return (
      <Page title={title}>
        <p>
          {link?.subject ? (
            <>
              You will get nothing more about <Subject subject={link.subject} />, and your address was deleted with the alert.
            </>
          ) : (
            'This alert was already stopped, or the link is incomplete: nothing more will be sent for it.'
          )}
        </p>
        <p>
          <a href={paths.inventory}>Browse the inventory</a>
        </p>
      </Page>
    )
  }
  return (
    <Page title={title}>
      <p>
        You will get no more emails about <Subject subject={link.subject} />, and your address will be deleted.
      </p>
      <form method="post" action={paths.watchLink('unsubscribe', token!)}>
        {/* The body a mail client's one-click unsubscribe sends (RFC 8058). */}
        <input type="hidden" name="List-Unsubscribe" value="One-Click" />
        <button type="submit" className="gc-button gc-button--primary">
          Stop the alert
        </button>
      </form>
    </Page>
  )
}

const prefetchLink =
  (purpose: 'confirmation' | 'subscription'): Route['prefetch'] =>
  async ({ queryClient, trpc }, _params, search) => {
    const token = tokenOf(search)
    if (token === undefined) return { status: 404 }
    const link = await queryClient.fetchQuery(trpc.alert[purpose].queryOptions({ token }))
    return link.state === 'unknown' ? { status: 404 } : undefined
  }

const confirmMeta = meta('Your price alert', paths.watchConfirm)
const stopMeta = meta('Stop a price alert', paths.watchStop)

export const watchConfirmRoute: Route = {
  Page: ConfirmPage,
  meta: () => confirmMeta,
  prefetch: prefetchLink('confirmation'),
}

export const watchStopRoute: Route = {
  Page: StopPage,
  meta: () => stopMeta,
  prefetch: prefetchLink('subscription'),
}
