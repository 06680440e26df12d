import { lookup } from 'node:dns/promises'
import { BlockList, isIP } from 'node:net'
import type { RowProblem } from './inventory-csv.ts'

/**
 * Where an imported photo may come from (PRODUCT.md, "Import"): the site itself, or a host listed
 * in IMPORT_PHOTO_HOSTS, and never an internal address. A host name is resolved and every address
 * it gives is checked, so a public name pointing at 127.0.0.1, the cloud's metadata service
 * (169.254.169.254) or the office network is refused like the address itself. Whoever fetches a
 * checked photo must connect to the address checked here (not resolve the name again), or a
 * name that changes its answer between the two looks would get through.
 */
const internal = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  internal.addSubnet(network, prefix, 'ipv4')
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['64:ff9b::', 96], // NAT64 (embeds an IPv4 address)
  ['2002::', 16], // 6to4 (embeds an IPv4 address)
] as const) {
  internal.addSubnet(network, prefix, 'ipv6')
}

/** Whether an address (IPv4, IPv6, or IPv4-mapped IPv6) is one a server must never fetch from. */
export function isInternalAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1]
  if (mapped) return isInternalAddress(mapped)
  const family = isIP(address)
  if (family === 4) return internal.check(address, 'ipv4')
  if (family === 6) return internal.check(address, 'ipv6')
  return true
}

export type Resolve = (host: string) => Promise<string[]>

const resolveAll: Resolve = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address)

export interface PhotoSourcePolicy {
  /** The site's own URL: its photos are files of this site, taken by path, never fetched. */
  siteUrl: string
  /** IMPORT_PHOTO_HOSTS: host names (with a port when not the default), lower case. */
  allowedHosts: readonly string[]
  resolve?: Resolve
  /**
   * Internal addresses let through anyway. Tests only (their photo server listens on
   * 127.0.0.1); no setting of the environment fills it.
   */
  trustedAddresses?: readonly string[]
}

/** A photo named in a row, as the import will take it. */
export type PhotoSource =
  | { kind: 'site'; path: string }
  | { kind: 'remote'; url: string; address: string }
  | { kind: 'file'; name: string }

/**
 * Checks one photo reference and says where it comes from, or why it is refused. A file name is
 * only allowed where the caller has a folder to resolve it in (the command line, not the console).
 */
export async function checkPhotoSource(
  reference: string,
  policy: PhotoSourcePolicy,
  options: { filesAllowed: boolean },
): Promise<PhotoSource | string> {
  if (!/^[a-z][a-z0-9+.-]*:/i.test(reference)) {
    if (!options.filesAllowed) return `"${reference}" is a file name: in the console, upload photos instead`
    if (reference.includes('..') || reference.startsWith('/')) return `"${reference}" must be a file name beside the CSV file`
    return { kind: 'file', name: reference }
  }
  let url: URL
  try {
    url = new URL(reference)
  } catch {
    return `"${reference}" is not a web address`
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `"${reference}" must be an http or https address`
  if (url.username || url.password) return `"${reference}" must not carry a user name or password`
  const site = new URL(policy.siteUrl)
  if (url.host === site.host) return { kind: 'site', path: url.pathname }
  if (!policy.allowedHosts.includes(url.host.toLowerCase())) {
    return `Photos come only from ${site.host}${policy.allowedHosts.length > 0 ? ` or ${policy.allowedHosts.join(', ')}` : ''}; ${url.host} is not allowed (IMPORT_PHOTO_HOSTS)`
  }
  const host = url.hostname.replace(/^\[|\]$/g, '')
  let addresses: string[]
  try {
    addresses = isIP(host) ? [host] : await (policy.resolve ?? resolveAll)(host)
  } catch {
    return `${url.hostname} could not be found (DNS)`
  }
  if (addresses.length === 0) return `${url.hostname} could not be found (DNS)`
  const inside = addresses.find((a) => isInternalAddress(a) && !policy.trustedAddresses?.includes(a))
  if (inside) return `${url.hostname} points at an internal address (${inside}); photos are never fetched from one`
  return { kind: 'remote', url: url.href, address: addresses[0]! }
}

/**
 * Every photo of every row checked; the problems name the row's line and the `photos` column.
 * `sources` holds each accepted reference's source, with the address to connect to.
 */
export async function checkRowPhotos(
  rows: readonly { line: number; photos: readonly string[] }[],
  policy: PhotoSourcePolicy,
  options: { filesAllowed: boolean },
): Promise<{ problems: RowProblem[]; sources: Map<string, PhotoSource> }> {
  const problems: RowProblem[] = []
  const sources = new Map<string, PhotoSource>()
  const cache = new Map<string, Promise<PhotoSource | string>>()
  for (const row of rows) {
    if (row.photos.length > 24) problems.push({ line: row.line, field: 'photos', message: `A cart has at most 24 photos; this row names ${row.photos.length}` })
    for (const reference of row.photos) {
      let checked = cache.get(reference)
      if (!checked) cache.set(reference, (checked = checkPhotoSource(reference, policy, options)))
      const result = await checked
      if (typeof result === 'string') problems.push({ line: row.line, field: 'photos', message: result })
      else sources.set(reference, result)
    }
  }
  return { problems, sources }
}
