import { useSyncExternalStore } from 'react'
import { type ShortlistKind, shortlistLinkText } from '../../domain/shortlist.ts'
import { onShortlistChange, shortlist, toggleInShortlist } from './shortlist-store.ts'

/**
 * A shortlist for React: null on the server, which has no storage (the site renders the buttons
 * and links hidden, and its plain script, host/islands/shortlist.ts, shows and works them: the
 * same markup, so the `data-shortlist` attributes below are that script's contract).
 */
export function useShortlist(kind: ShortlistKind): string[] | null {
  return useSyncExternalStore(onShortlistChange, snapshots[kind], serverSnapshot)
}

/** Both lists, as a grid reads them once for all its cards. */
export type Shortlists = Readonly<Record<ShortlistKind, string[] | null>>

export function useShortlists(): Shortlists {
  return { compare: useShortlist('compare'), saved: useShortlist('saved') }
}

// The same functions every render: `useSyncExternalStore` re-checks the store whenever they change.
const snapshots: Readonly<Record<ShortlistKind, () => string[]>> = { compare: () => shortlist('compare'), saved: () => shortlist('saved') }
const serverSnapshot = () => null

const buttonWords: Readonly<Record<ShortlistKind, string>> = { compare: 'Compare', saved: 'Save' }

/**
 * A card's Compare and Save: each a toggle (`aria-pressed`) of the cart in this browser's list.
 * Given the lists by its grid (`useShortlists`), so 24 cards make one subscription, not 48.
 */
export function ShortlistButtons({ slug, title, lists }: { slug: string; title: string; lists: Shortlists }) {
  const ready = lists.compare !== null && lists.saved !== null
  return (
    <div className="gc-card__actions" data-shortlist-actions="" hidden={!ready || undefined}>
      {(['compare', 'saved'] as const).map((kind) => (
        <button
          key={kind}
          type="button"
          className="gc-card__action"
          part={`${kind === 'saved' ? 'save' : kind}-button`}
          data-shortlist={kind}
          data-slug={slug}
          aria-pressed={lists[kind]?.includes(slug) ?? false}
          onClick={() => toggleInShortlist(kind, slug)}
        >
          {buttonWords[kind]}
          <span className="gc-sr-only"> {title}</span>
        </button>
      ))}
    </div>
  )
}

/**
 * The links to the shopper's lists, shown once a list has a cart: "Compare 2 carts" to
 * `/compare?carts=...` and "Saved carts (3)" to `/saved?carts=...` on the dealer's site (from a
 * partner's page the lists travel in the address: local storage is each site's own).
 */
export function ShortlistLinks(props: { href: (kind: ShortlistKind, slugs: readonly string[]) => string; className?: string }) {
  const lists = useShortlists()
  const shown = (kind: ShortlistKind) => (lists[kind]?.length ?? 0) > 0
  return (
    <p className={props.className ?? 'gc-shortlist'} part="shortlist" data-shortlist-bar="" hidden={(!shown('compare') && !shown('saved')) || undefined}>
      {(['compare', 'saved'] as const).map((kind) => (
        <a key={kind} className="gc-shortlist__link" part={`${kind}-link`} data-shortlist-link={kind} href={props.href(kind, lists[kind] ?? [])} hidden={!shown(kind) || undefined}>
          {shortlistLinkText(kind, lists[kind]?.length ?? 0)}
        </a>
      ))}
    </p>
  )
}
