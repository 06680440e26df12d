/**
 * Which push endpoints the server will send to (PRODUCT.md, "push endpoints"): only the browsers'
 * own push services, named in `PUSH_SERVICE_HOSTS`. Any other address, whatever its spelling, is
 * refused before it is stored, so a stolen session cannot turn the outbox worker into a client of
 * the dealer's own network (127.0.0.1, 10.0.0.1, the cloud's 169.254.169.254) or of a server that
 * never answers.
 */
export const defaultPushServiceHosts = [
  // Chrome, Edge on Android, and every Chromium browser.
  'fcm.googleapis.com',
  // Safari on macOS and iOS (web.push.apple.com and its regional hosts).
  '*.push.apple.com',
  'updates.push.services.mozilla.com',
  // Edge on Windows (Windows Push Notification Services).
  '*.notify.windows.com',
] as const

/** One host as `PUSH_SERVICE_HOSTS` may list it: a name, or `*.` and a name for its subdomains. */
export const pushServiceHostShape = /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/

/** Whether a URL's host name (as the WHATWG URL parser gives it, lower case) is on the list. */
export function isPushServiceHost(hostname: string, hosts: readonly string[]): boolean {
  return hosts.some((host) =>
    host.startsWith('*.') ? hostname.endsWith(host.slice(1)) && hostname.length > host.length - 1 : hostname === host,
  )
}

/**
 * The endpoint as it will be stored and sent to (the WHATWG parser's spelling: `https://0x7f.1`
 * is `https://127.0.0.1/`, so the host checked is the host reached), or the sentence refusing it.
 */
export function pushEndpoint(endpoint: string, hosts: readonly string[]): { endpoint: string } | { problem: string } {
  let url: URL
  try {
    url = new URL(endpoint)
  } catch {
    return { problem: 'The endpoint is not a web address.' }
  }
  if (url.protocol !== 'https:') return { problem: 'The endpoint must be an https address.' }
  if (url.username || url.password) return { problem: 'The endpoint must not carry a user name or password.' }
  if (!isPushServiceHost(url.hostname, hosts)) {
    return { problem: `The endpoint is not on a browser’s push service (${hosts.join(', ')}), so this browser cannot take alerts.` }
  }
  return { endpoint: url.href }
}
