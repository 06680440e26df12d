/**
 * What keeps a salesperson from losing work or selling a cart by accident (issue #30, point 3),
 * added by the console's script to pages that work without it:
 *
 * - a form marked `data-unsaved-prompt` asks before the page is left with changes not saved
 *   (the browser's own "Leave site?" question; pressing one of the form's buttons is not leaving);
 * - a form whose status control is changed to Sold asks first (`data-confirm-sold` names the
 *   cart; the cart form asks too). The answer rides along as `confirm=sold`, so the list's row
 *   does not ask again with its confirmation page, which is what a browser without the script gets.
 */
export function guardForms(root: Document = document): void {
  for (const form of root.querySelectorAll<HTMLFormElement>('form[data-unsaved-prompt]')) promptBeforeLeaving(form)
  for (const form of root.querySelectorAll<HTMLFormElement>('form[data-confirm-sold], form[data-cart-form]')) confirmSale(form)
}

function promptBeforeLeaving(form: HTMLFormElement): void {
  let changed = false
  let submitting = false
  const mark = () => {
    changed = true
  }
  form.addEventListener('input', mark)
  form.addEventListener('change', mark)
  // Photos are saved as they are added (host/staff/cart-photos.tsx): they are not unsaved changes.
  form.querySelector('[data-cart-photos]')?.addEventListener('input', (event) => event.stopPropagation())
  form.querySelector('[data-cart-photos]')?.addEventListener('change', (event) => event.stopPropagation())
  form.addEventListener('submit', () => {
    submitting = true
  })
  window.addEventListener('beforeunload', (event) => {
    if (!changed || submitting) return
    event.preventDefault()
    // Older Chromium and Safari show the prompt only when returnValue is set.
    event.returnValue = ''
  })
}

function confirmSale(form: HTMLFormElement): void {
  form.addEventListener('submit', (event) => {
    const status = form.elements.namedItem('status')
    if (!(status instanceof HTMLSelectElement) || status.value !== 'sold') return
    const before = [...status.options].find((option) => option.defaultSelected)?.value
    if (before === 'sold') return
    const title = form.dataset.confirmSold || 'this cart'
    if (!window.confirm(`Mark ${title} as sold? It leaves the site's lists, the feeds and the featured set at once.`)) {
      event.preventDefault()
      return
    }
    form.querySelector('input[name=confirm]')?.remove()
    form.append(Object.assign(document.createElement('input'), { type: 'hidden', name: 'confirm', value: 'sold' }))
  })
}
