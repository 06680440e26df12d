import { browserSupportsWebAuthn, startAuthentication, startRegistration, WebAuthnError } from '@simplewebauthn/browser'
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser'
import { createTRPCClient, httpLink } from '@trpc/client'
import type { AppRouter } from '../../api/trpc/router.ts'

/**
 * Passkeys in the browser (issue #29; docs/decisions/0028): the two forms that need the
 * browser's WebAuthn, shown only where it has it (their pages say so otherwise). Each asks the
 * browser, puts its answer in the form's hidden field and posts the form as plain HTML would, so
 * the server answers as for every other form: the next page, or the refusal beside its field.
 *
 * - Your account, `form[data-passkey-add]`: options from `staff.account.passkeyOptions`, then a
 *   new passkey (navigator.credentials.create) into `response`.
 * - The sign-in's second step, `form[data-passkey-sign-in]`: the options the page carries, then a
 *   signature (navigator.credentials.get) into `passkey`.
 */
export function mountPasskeys(): void {
  const add = document.querySelector<HTMLFormElement>('form[data-passkey-add]')
  const signIn = document.querySelector<HTMLFormElement>('form[data-passkey-sign-in]')
  if ((!add && !signIn) || !browserSupportsWebAuthn()) return
  for (const note of document.querySelectorAll<HTMLElement>('[data-passkey-unavailable]')) note.hidden = true
  if (add) {
    add.hidden = false
    handle(add, 'response', async () => {
      const client = createTRPCClient<AppRouter>({ links: [httpLink({ url: '/trpc' })] })
      const optionsJSON = await client.staff.account.passkeyOptions.mutate()
      return startRegistration({ optionsJSON })
    })
  }
  if (signIn) {
    signIn.hidden = false
    const optionsJSON = JSON.parse(signIn.dataset.passkeySignIn ?? '{}') as PublicKeyCredentialRequestOptionsJSON
    handle(signIn, 'passkey', () => startAuthentication({ optionsJSON }))
  }
}

/** On submit: the browser's answer into `field`, then the post; what went wrong in the status line. */
function handle(form: HTMLFormElement, field: string, ask: () => Promise<unknown>): void {
  const answer = form.elements.namedItem(field)
  const status = form.querySelector<HTMLElement>('[data-passkey-status]')
  const button = form.querySelector<HTMLButtonElement>('button[type=submit]')
  if (!(answer instanceof HTMLInputElement)) return
  form.addEventListener('submit', (event) => {
    if (answer.value) return
    event.preventDefault()
    void (async () => {
      if (button) button.disabled = true
      if (status) status.textContent = 'Follow your browser’s prompt to use your passkey…'
      try {
        answer.value = JSON.stringify(await ask())
        if (status) status.textContent = ''
        form.submit()
      } catch (error) {
        if (status) status.textContent = problem(error)
        if (button) button.disabled = false
      }
    })()
  })
}

/** What went wrong, as a sentence: cancelled, not allowed here, or the browser's own words. */
function problem(error: unknown): string {
  // The library passes the browser's own error on as the cause of a WebAuthnError.
  const cause = error instanceof WebAuthnError && error.cause instanceof Error ? error.cause : undefined
  const name = cause?.name ?? (error instanceof WebAuthnError ? error.code : error instanceof Error ? error.name : '')
  if (name === 'ERROR_CEREMONY_ABORTED' || name === 'NotAllowedError' || name === 'AbortError') {
    return 'The passkey was not used (cancelled, or it took too long). Press the button to try again.'
  }
  if (error instanceof WebAuthnError && error.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return 'That passkey is already on your account.'
  const message = error instanceof Error ? error.message : String(error)
  return `The passkey could not be used in this browser: ${message}`
}
