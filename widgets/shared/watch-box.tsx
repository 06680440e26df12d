import type { ReactNode } from 'react'
import type { WatchedSearch } from '../../domain/cart-alerts.ts'
import { BellMark } from './icons.tsx'

/** What is watched: one cart, or the search on screen (its filters, not its sort). */
export type WatchFormSubject = { cartId: number } | { query: WatchedSearch }

/** A post without JavaScript, as the page renders again: sent, or refused with what was typed. */
export interface PostedWatch {
  sent?: boolean
  email?: string
  errors?: Record<string, string>
  message?: string
}

export interface WatchFormProps {
  subject: WatchFormSubject
  /** The button's words (domain/cart-alerts.ts, `watchWords`). */
  label: string
  /** What the watcher will hear of, in one sentence. */
  promise: string
  /**
   * The dealer's site: the page's own address, where the form posts without JavaScript
   * (host/server/watch-posts.ts). Embeds leave it out and send through the API.
   */
  action?: string
  posted?: PostedWatch
  /**
   * The dealer's site only: a "Notify me in this browser" button, shown by host/islands/watch.ts
   * where the browser can take Web Push. A partner's page is another origin, where the site's
   * service worker cannot run: email only there.
   */
  push?: boolean
  privacyHref: string
  /** In an embed: ask first whether the page may send (the leads' origin rule). */
  checkOrigin?: boolean
}

/**
 * The alert's box (PRODUCT.md, "watching a cart or a search"): one button that opens what it
 * holds (a `<details>`, so it opens without JavaScript).
 */
export function WatchBox(props: { label: string; open?: boolean; onOpen?: () => void; children: ReactNode }) {
  return (
    <details
      className="gc-watch"
      part="watch"
      id="watch"
      open={props.open || undefined}
      onToggle={props.onOpen && ((event) => event.currentTarget.open && props.onOpen?.())}
    >
      <summary className="gc-button gc-button--outline gc-watch__toggle" part="button watch-button">
        <BellMark size={18} /> {props.label}
      </summary>
      <div className="gc-watch__panel">{props.children}</div>
    </details>
  )
}
