/**
 * What the console's script adds to the lead page's reply box (host/staff/leads/reply-box.tsx),
 * which works without it:
 *
 * - choosing a template fills in the message at once, from the option's filled-in text, instead
 *   of reloading the page with `?template=`; what the salesperson typed themselves is replaced
 *   only after asking;
 * - tapping a Call link (on a phone, the dialler opens) offers the call's outcome afterwards: the
 *   "How did it go?" choices take the focus and say so, ready when the salesperson comes back.
 */
export function mountReplyBox(root: Document = document): void {
  for (const form of root.querySelectorAll<HTMLFormElement>('form[data-reply-templates]')) fillFromTemplates(root, form)
  const outcome = root.querySelector<HTMLInputElement>('#call input[name="outcome"]')
  const prompt = root.querySelector<HTMLElement>('[data-call-prompt]')
  if (!outcome) return
  for (const link of root.querySelectorAll<HTMLAnchorElement>('.lead-page a[href^="tel:"]')) {
    link.addEventListener('click', () => {
      if (prompt) prompt.textContent = 'After the call, say how it went below.'
      outcome.closest('form')?.scrollIntoView({ block: 'start' })
      outcome.focus({ preventScroll: true })
    })
  }
}

function fillFromTemplates(root: Document, form: HTMLFormElement): void {
  const select = form.querySelector('select')
  const message = root.getElementById(form.dataset.replyTemplates ?? '') as HTMLTextAreaElement | null
  if (!select || !message) return
  const chosen = () => select.options[select.selectedIndex]?.dataset.body
  // What a template put in the message (the page's own `?template=`): replacing it needs no question.
  let filled = chosen() ?? ''
  const fill = () => {
    const body = chosen()
    if (body === undefined || body === message.value) return
    const typed = message.value.trim() !== '' && message.value !== filled
    if (typed && !window.confirm('Replace what you wrote with this template?')) return
    message.value = body
    filled = body
  }
  select.addEventListener('change', fill)
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    fill()
    message.focus()
  })
  form.querySelector('[data-use-template]')?.remove()
}
