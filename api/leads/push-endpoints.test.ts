import { describe, expect, it } from 'vitest'
import { defaultPushServiceHosts, isPushServiceHost, pushEndpoint } from './push-endpoints.ts'

const hosts = defaultPushServiceHosts

describe('push endpoints', () => {
  it.each([
    ['https://fcm.googleapis.com/fcm/send/abc:def', 'https://fcm.googleapis.com/fcm/send/abc:def'],
    ['https://web.push.apple.com/QGx1', 'https://web.push.apple.com/QGx1'],
    ['https://updates.push.services.mozilla.com/wpush/v2/gAAA', 'https://updates.push.services.mozilla.com/wpush/v2/gAAA'],
    ['https://wns2-par02p.notify.windows.com/w/?token=BQYAAA', 'https://wns2-par02p.notify.windows.com/w/?token=BQYAAA'],
    ['HTTPS://FCM.GoogleAPIs.com/fcm/send/x', 'https://fcm.googleapis.com/fcm/send/x'],
  ])('accepts the browsers’ push services: %s', (endpoint, stored) => {
    expect(pushEndpoint(endpoint, hosts)).toEqual({ endpoint: stored })
  })

  it.each([
    'https://127.0.0.1/push/x',
    'https://[::1]/push/x',
    'https://localhost/push/x',
    'https://2130706433/push/x',
    'https://0x7f.1/push/x',
    'https://0x7f000001/push/x',
    'https://0177.0.0.1/push/x',
    'https://127.1/push/x',
    'https://[::ffff:127.0.0.1]/push/x',
    'https://10.0.0.1/push/x',
    'https://169.254.169.254/latest/meta-data/',
    'https://push.apple.com/x',
    'https://fcm.googleapis.com.evil.example/x',
    'https://evilfcm.googleapis.com/x',
    'https://fcm.googleapis.com./x',
    'https://notify.windows.com.evil.example/x',
  ])('refuses %s with a sentence naming the push services', (endpoint) => {
    const checked = pushEndpoint(endpoint, hosts)
    expect(checked).toEqual({ problem: expect.stringContaining('is not on a browser’s push service (fcm.googleapis.com, *.push.apple.com') })
  })

  it('refuses what is not https, not a URL, or carries a user name', () => {
    expect(pushEndpoint('http://fcm.googleapis.com/fcm/send/x', hosts)).toEqual({ problem: 'The endpoint must be an https address.' })
    expect(pushEndpoint('fcm.googleapis.com/fcm/send/x', hosts)).toEqual({ problem: 'The endpoint is not a web address.' })
    expect(pushEndpoint('https://me:secret@fcm.googleapis.com/x', hosts)).toEqual({ problem: 'The endpoint must not carry a user name or password.' })
  })

  it('stores the host that will be reached: a backslash or an @ in the path cannot move it', () => {
    expect(pushEndpoint('https://fcm.googleapis.com\\@127.0.0.1/x', hosts)).toEqual({ endpoint: 'https://fcm.googleapis.com/@127.0.0.1/x' })
  })

  it('matches `*.` to subdomains only, and a name to itself only', () => {
    expect(isPushServiceHost('a.b.push.apple.com', ['*.push.apple.com'])).toBe(true)
    expect(isPushServiceHost('push.apple.com', ['*.push.apple.com'])).toBe(false)
    expect(isPushServiceHost('xpush.apple.com', ['*.push.apple.com'])).toBe(false)
    expect(isPushServiceHost('127.0.0.1', ['127.0.0.1'])).toBe(true)
    expect(isPushServiceHost('127.0.0.10', ['127.0.0.1'])).toBe(false)
  })
})
