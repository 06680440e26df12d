/**
 * The header's menu button on small screens: opens and closes the menu, says which it will do,
 * and closes the menu when a link in it is chosen, on Escape (focus back on the button) and on a
 * tap or click anywhere outside the header. A few lines of plain script in the entry, so
 * a page without other islands loads no framework at all.
 */
export function enhanceMenu(header: Element | null): void {
  if (!header) return
  const toggle = header.querySelector<HTMLButtonElement>('button[aria-controls]')
  const menu = toggle && document.getElementById(toggle.getAttribute('aria-controls') ?? '')
  if (!toggle || !menu) return
  const label = toggle.querySelector('.gc-sr-only')
  const show = (open: boolean) => {
    toggle.setAttribute('aria-expanded', String(open))
    menu.hidden = !open
    if (label) label.textContent = open ? 'Close menu' : 'Open menu'
  }
  toggle.addEventListener('click', () => show(toggle.getAttribute('aria-expanded') !== 'true'))
  const open = () => toggle.getAttribute('aria-expanded') === 'true'
  menu.addEventListener('click', (event) => {
    if ((event.target as Element).closest('a')) show(false)
  })
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !open()) return
    show(false)
    toggle.focus()
  })
  // A tap on the page behind only closes the menu: the click it becomes is swallowed, so it does
  // not also follow a link that happened to be under the finger.
  let swallowUntil = 0
  document.addEventListener('pointerdown', (event) => {
    if (!open() || header.contains(event.target as Node)) return
    show(false)
    swallowUntil = event.timeStamp + 1000
  })
  document.addEventListener(
    'click',
    (event) => {
      if (event.timeStamp > swallowUntil) return
      swallowUntil = 0
      event.preventDefault()
      event.stopPropagation()
    },
    { capture: true },
  )
  // A page the browser kept in memory comes back with its menu closed.
  addEventListener('pageshow', (event) => {
    if (event.persisted) show(false)
  })
}
