// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { mountReplyBox } from './reply-box-client.ts'

/**
 * The reply box's script (host/staff/leads/reply-box-client.ts) on the markup the server renders
 * (host/staff/leads/reply-box.tsx): a template fills the message without a reload, and what the
 * salesperson typed is replaced only when they say so. The page with the server and Chromium is
 * tests/browser/lead-replies.test.ts.
 */
function page(message = '', chosen = '') {
  document.body.innerHTML = `
    <div class="lead-page">
      <form method="get" data-reply-templates="reply-body">
        <select id="reply-template" name="template">
          <option value="">Choose a template</option>
          <option value="1" data-body="Hi Tess, thanks for asking."${chosen === '1' ? ' selected' : ''}>Thanks</option>
          <option value="2" data-body="Hi Tess, it is here.">Here</option>
        </select>
        <button type="submit" data-use-template>Use template</button>
      </form>
      <textarea id="reply-body" name="body">${message}</textarea>
      <form id="call"><a href="tel:+16095550142">Call</a><span data-call-prompt></span><input type="radio" name="outcome" value="reached" /></form>
    </div>`
  mountReplyBox(document)
  const select = document.querySelector('select')!
  const body = document.querySelector('textarea')!
  const choose = (value: string) => {
    select.value = value
    select.dispatchEvent(new Event('change'))
  }
  return { select, body, choose }
}

/** happy-dom has no dialogs: the test answers "Replace what you wrote?" itself. */
const answerConfirm = (answer: boolean) => {
  const asked = vi.fn((_message?: string) => answer)
  window.confirm = asked
  return asked
}
afterEach(() => {
  Reflect.deleteProperty(window, 'confirm')
})

describe('the reply box with its script', () => {
  it('fills the message from the chosen template at once, and drops the “Use template” round trip', () => {
    const { body, choose } = page()
    expect(document.querySelector('[data-use-template]')).toBeNull()
    choose('1')
    expect(body.value).toBe('Hi Tess, thanks for asking.')
    // Another template replaces one that was only chosen, without asking.
    const asked = answerConfirm(true)
    choose('2')
    expect(body.value).toBe('Hi Tess, it is here.')
    expect(asked).not.toHaveBeenCalled()
  })

  it('asks before replacing what was typed, and keeps it when told no', () => {
    const { body, choose } = page('My own words')
    const asked = answerConfirm(false)
    choose('1')
    expect(asked).toHaveBeenCalledWith('Replace what you wrote with this template?')
    expect(body.value).toBe('My own words')
    answerConfirm(true)
    choose('2')
    expect(body.value).toBe('Hi Tess, it is here.')
  })

  it('replaces without asking a message the page filled from a template (“Use template” without the script)', () => {
    const { body, choose } = page('Hi Tess, thanks for asking.', '1')
    const asked = answerConfirm(false)
    choose('2')
    expect(asked).not.toHaveBeenCalled()
    expect(body.value).toBe('Hi Tess, it is here.')
  })

  it('after a tap on Call, offers the outcome: focus on it, and says so', () => {
    page()
    document.querySelector<HTMLAnchorElement>('a[href^="tel:"]')!.addEventListener('click', (event) => event.preventDefault())
    document.querySelector<HTMLAnchorElement>('a[href^="tel:"]')!.click()
    expect((document.activeElement as HTMLInputElement).value).toBe('reached')
    expect(document.querySelector('[data-call-prompt]')!.textContent).toBe('After the call, say how it went below.')
  })
})
