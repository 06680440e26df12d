import { readShortlist, type ShortlistKind, toggleShortlist } from '../../domain/shortlist.ts'

/**
 * The shopper's shortlists kept in this browser's local storage (PRODUCT.md, "compare and save"):
 * no account, no cookie, nothing sent anywhere until the shopper opens /compare or /saved. The
 * one place that reads and writes them: the widgets through `useShortlist` (shortlist-buttons.tsx), the dealer's site
 * through its plain script (host/islands/shortlist.ts). Storage may be refused (privacy modes,
 * sandboxed frames): the lists are then empty and the buttons still answer for this page.
 */
const storageKeys: Readonly<Record<ShortlistKind, string>> = { compare: 'gc-compare', saved: 'gc-saved' }
/** Told to this page's listeners; other tabs hear the browser's `storage` event. */
const changed = 'gc-shortlist-change'
/** Kept when storage refuses, so the page still agrees with itself. */
const memory: Record<ShortlistKind, string[]> = { compare: [], saved: [] }
/** The last list read, by its stored text: `useSyncExternalStore` needs the same array while nothing changed. */
const lastRead: Partial<Record<ShortlistKind, { text: string | null; list: string[] }>> = {}

export function shortlist(kind: ShortlistKind): string[] {
  let text: string | null
  try {
    text = localStorage.getItem(storageKeys[kind])
  } catch {
    return memory[kind]
  }
  const last = lastRead[kind]
  if (last && last.text === text) return last.list
  const list = readShortlist(kind, text)
  lastRead[kind] = { text, list }
  return list
}

export function setShortlist(kind: ShortlistKind, list: readonly string[]): void {
  const kept = readShortlist(kind, list.join(','))
  memory[kind] = kept
  try {
    localStorage.setItem(storageKeys[kind], kept.join(','))
  } catch {
    // Refused: this page keeps it in memory.
  }
  dispatchEvent(new CustomEvent(changed))
}

export function toggleInShortlist(kind: ShortlistKind, slug: string): string[] {
  const next = toggleShortlist(kind, shortlist(kind), slug)
  setShortlist(kind, next)
  return next
}

/** Calls `listener` whenever a list changes, here or in another tab; returns the unsubscribe. */
export function onShortlistChange(listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || Object.values(storageKeys).includes(event.key)) listener()
  }
  addEventListener(changed, listener)
  addEventListener('storage', onStorage)
  return () => {
    removeEventListener(changed, listener)
    removeEventListener('storage', onStorage)
  }
}
