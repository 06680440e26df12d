/**
 * The header's menu button on small screens: opens and closes the menu, says which it will do,
 * and closes the menu when a link in it is chosen. A few lines of plain script in the entry, so
 * a page without other islands loads no framework at all.
 */
export function enhanceMenu(header: Element | null): void {
  const toggle = header?.querySelector<HTMLButtonElement>('button[aria-controls]')
  const menu = toggle && document.getElementById(toggle.getAttribute('aria-controls') ?? '')
  if (!toggle || !menu) return
  const label = toggle.querySelector('.gc-sr-only')
  const show = (open: boolean) => {
    toggle.setAttribute('aria-expanded', String(open))
    menu.hidden = !open
    if (label) label.textContent = open ? 'Close menu' : 'Open menu'
  }
  toggle.addEventListener('click', () => show(toggle.getAttribute('aria-expanded') !== 'true'))
  menu.addEventListener('click', (event) => {
    if ((event.target as Element).closest('a')) show(false)
  })
  // A page the browser kept in memory comes back with its menu closed.
  addEventListener('pageshow', (event) => {
    if (event.persisted) show(false)
  })
}
