import { leadPollMs } from '../../../domain/lead-status.ts'

/**
 * New leads and colleagues' changes without a reload (decision 0019). Parts of a page marked
 * `data-live="name"` are fetched again every 5 seconds, by asking for the same page as a person
 * reloading it would (so the session is checked each time, through any server process), and
 * swapped in where they changed. A region holding the keyboard focus waits for the next round,
 * so nobody loses their place; forms where people type are never live. When the inbox gains
 * leads, `#lead-news` (a polite status region) says how many arrived.
 *
 * Polling stops while the tab is hidden and resumes at once when it shows. A session that ended
 * stops it, with a sentence saying to sign in again.
 */
export function startLiveRegions(doc: Document = document, everyMs = leadPollMs): { stop(): void } {
  if (!doc.querySelector('[data-live]')) return { stop() {} }
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = false

  const schedule = () => {
    clearTimeout(timer)
    if (!stopped && doc.visibilityState === 'visible') timer = setTimeout(() => void refresh(), everyMs)
  }

  async function refresh() {
    try {
      const res = await fetch(location.href, { credentials: 'same-origin', cache: 'no-store', headers: { accept: 'text/html' } })
      if (res.redirected && new URL(res.url).pathname.startsWith('/staff/login')) {
        stopped = true
        announce(doc, 'You were signed out: sign in again to see new leads.')
        return
      }
      if (res.ok) swap(doc, new DOMParser().parseFromString(await res.text(), 'text/html'))
    } catch {
      // Offline for a moment: the next round tries again.
    }
    schedule()
  }

  const onVisibility = () => (doc.visibilityState === 'visible' ? void refresh() : clearTimeout(timer))
  doc.addEventListener('visibilitychange', onVisibility)
  schedule()
  return {
    stop() {
      stopped = true
      clearTimeout(timer)
      doc.removeEventListener('visibilitychange', onVisibility)
    },
  }
}

function swap(doc: Document, fresh: Document) {
  for (const current of doc.querySelectorAll<HTMLElement>('[data-live]')) {
    const next = fresh.querySelector<HTMLElement>(`[data-live="${CSS.escape(current.dataset.live ?? '')}"]`)
    if (!next || next.innerHTML === current.innerHTML) continue
    if (current.contains(doc.activeElement)) continue
    const before = current.dataset.newest === undefined ? undefined : Number(current.dataset.newest)
    const after = Number(next.dataset.newest ?? 0)
    current.replaceChildren(...Array.from(next.childNodes, (node) => doc.importNode(node, true)))
    if (next.dataset.newest !== undefined) current.dataset.newest = next.dataset.newest
    if (before !== undefined && after > before) {
      const rows = current.querySelectorAll<HTMLElement>('[data-lead-id]')
      const count = Array.from(rows).filter((row) => Number(row.dataset.leadId) > before).length
      if (count > 0) announce(doc, `${count} new lead${count === 1 ? '' : 's'} arrived.`)
    }
  }
}

function announce(doc: Document, text: string) {
  const news = doc.getElementById('lead-news')
  if (news) news.textContent = text
}
