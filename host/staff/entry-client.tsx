import { createRoot } from 'react-dom/client'
import { mountAlerts } from './alerts.ts'
import { mountCartPhotos } from './cart-photos.tsx'
import { guardForms } from './form-guards.ts'
import { mountInventoryImport } from './inventory-import.tsx'
import { mountPasskeys } from './passkeys.ts'
import { startLiveRegions } from './leads/live-regions.ts'
import { mountReplyBox } from './leads/reply-box-client.ts'
import { type PreviewValues, previewFields, SpecificationsPreview } from './spec-preview.tsx'
import './staff.css'
import './leads/leads.css'

/**
 * The console's only script (docs/decisions/0016). Every page works as plain HTML forms; this adds
 * what HTML alone cannot: the cart form's live preview of the specifications a visitor will see,
 * the lead pages' live regions, which bring new leads and colleagues' changes in without a
 * reload (docs/decisions/0019), and the cart form's Photos section (uploads with progress,
 * reordering: host/staff/cart-photos.tsx) and the inventory import's preview and confirm
 * (host/staff/inventory-import.tsx), "Turn on alerts on this phone" (host/staff/alerts.ts), and
 * passkeys, added on Your account and used at sign-in (host/staff/passkeys.ts), and the lead page's
 * reply box: a template fills the message at once, a Call offers its outcome (host/staff/leads/reply-box-client.ts).
 */
const form = document.querySelector<HTMLFormElement>('form[data-cart-form]')
const preview = document.getElementById('spec-preview')
if (form && preview) {
  const read = (): PreviewValues =>
    Object.fromEntries(
      previewFields.map((name) => {
        const field = form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | null
        return [name, field?.value ?? '']
      }),
    )
  const root = createRoot(preview)
  const update = () => root.render(<SpecificationsPreview values={read()} />)
  form.addEventListener('input', update)
  form.addEventListener('change', update)
  update()
}
// On a phone the navigation is one row that scrolls sideways: show where this page is in it.
document.querySelector('.staff-nav [aria-current="page"]')?.scrollIntoView({ block: 'nearest', inline: 'center' })
// The list's "Select all on this page" (host/staff/inventory.tsx): hidden without this script.
for (const all of document.querySelectorAll<HTMLInputElement>('input[data-select-all]')) {
  const rows = () => document.querySelectorAll<HTMLInputElement>(`input[type=checkbox][form="${all.dataset.selectAll}"]`)
  all.closest('label')?.removeAttribute('hidden')
  all.addEventListener('change', () => rows().forEach((row) => (row.checked = all.checked)))
}
// The dashboard's week charts scroll sideways on a phone: each opens on the current week, its last.
for (const chart of document.querySelectorAll<HTMLElement>('.week-chart .lead-scroll')) chart.scrollLeft = chart.scrollWidth
startLiveRegions()
guardForms()
mountCartPhotos()
mountInventoryImport()
mountAlerts()
mountPasskeys()
mountReplyBox()
document.documentElement.setAttribute('data-staff-ready', '')
