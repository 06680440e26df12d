import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { LookupFunction } from 'node:net'
import { isIP } from 'node:net'
import { photoLimits } from '../../domain/photos.ts'
import { checkPhotoSource, type PhotoSourcePolicy } from './photo-sources.ts'

/**
 * Fetches a photo an import names by URL (PRODUCT.md, "Import"), after `checkPhotoSource` has
 * allowed it. The connection goes to the address that check found, never to a second DNS
 * answer (a name that changes its answer between check and fetch, "DNS rebinding", reaches
 * nothing new); the URL's host name still goes in the Host header and TLS's server name, so
 * certificates are checked as usual. A redirect is checked again like the file's own URL, at
 * most three times. The body is refused past 25 MB (the upload limit) and the whole fetch past
 * the time limit. What comes back is bytes only: the photo processor decides if it is a photo.
 */
export class PhotoFetchError extends Error {
  override name = 'PhotoFetchError'
}

export interface FetchLimits {
  /** The whole fetch, redirects included. */
  timeoutMs: number
  maxBytes: number
  maxRedirects: number
}

export const photoFetchLimits: FetchLimits = { timeoutMs: 20_000, maxBytes: photoLimits.uploadBytes, maxRedirects: 3 }

const redirects = new Set([301, 302, 303, 307, 308])

export async function fetchPhoto(
  source: { url: string; address: string },
  policy: PhotoSourcePolicy,
  limits: FetchLimits = photoFetchLimits,
): Promise<Buffer> {
  const deadline = AbortSignal.timeout(limits.timeoutMs)
  let current = source
  for (let hop = 0; ; hop++) {
    const answer = await get(current, deadline, limits)
    if (!redirects.has(answer.status)) {
      if (answer.status !== 200) throw new PhotoFetchError(`${current.url} answered ${answer.status}, not the photo`)
      return answer.body!
    }
    if (!answer.location) throw new PhotoFetchError(`${current.url} answered ${answer.status} without saying where to`)
    if (hop >= limits.maxRedirects) throw new PhotoFetchError(`${source.url} redirects more than ${limits.maxRedirects} times`)
    const next = new URL(answer.location, current.url).href
    const checked = await checkPhotoSource(next, policy, { filesAllowed: false })
    if (typeof checked === 'string') throw new PhotoFetchError(`${current.url} redirects to ${next}: ${checked}`)
    if (checked.kind !== 'remote') throw new PhotoFetchError(`${current.url} redirects to this site (${next}): name that address in the file instead`)
    current = checked
  }
}

interface Answer {
  status: number
  location?: string
  body?: Buffer
}

function get(source: { url: string; address: string }, deadline: AbortSignal, limits: FetchLimits): Promise<Answer> {
  const url = new URL(source.url)
  const family = isIP(source.address)
  // Every name the connection looks up is answered with the checked address.
  const pinned: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, [{ address: source.address, family }])
    else callback(null, source.address, family)
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise<Answer>((resolve, reject) => {
    const fail = (error: unknown) =>
      reject(
        deadline.aborted
          ? new PhotoFetchError(`${source.url} did not send the photo within ${limits.timeoutMs / 1000} seconds`)
          : error instanceof PhotoFetchError
            ? error
            : new PhotoFetchError(`${source.url} could not be fetched (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`),
      )
    const request = send(
      url,
      {
        method: 'GET',
        lookup: pinned,
        signal: deadline,
        headers: { accept: 'image/avif,image/webp,image/png,image/jpeg,*/*;q=0.5', 'user-agent': 'jersey-cart-co inventory import' },
      },
      (response: IncomingMessage) => {
        const status = response.statusCode ?? 0
        if (status !== 200) {
          response.resume()
          return resolve({ status, location: response.headers.location })
        }
        const declared = Number(response.headers['content-length'] ?? 0)
        if (declared > limits.maxBytes) {
          request.destroy()
          return fail(new PhotoFetchError(tooLarge(source.url, limits)))
        }
        const chunks: Buffer[] = []
        let size = 0
        response.on('data', (chunk: Buffer) => {
          size += chunk.length
          if (size > limits.maxBytes) {
            request.destroy()
            fail(new PhotoFetchError(tooLarge(source.url, limits)))
          } else chunks.push(chunk)
        })
        response.on('end', () => resolve({ status, body: Buffer.concat(chunks) }))
        response.on('error', fail)
      },
    )
    request.on('error', fail)
    request.end()
  })
}

const tooLarge = (url: string, limits: FetchLimits) =>
  `${url} is larger than ${limits.maxBytes / 1024 / 1024} MB, the most a photo may be`
