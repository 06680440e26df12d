import { TRPCClientError } from '@trpc/client'
import { describe, expect, it } from 'vitest'
import { busyRetryDelay, retryWhileBusy } from './api.tsx'

/** The rental quote's retries (widgets/rental-request): only while the server is busy or silent, twice at most. */
const answered = (httpStatus: number) =>
  TRPCClientError.from({ error: { message: 'busy', code: -32603, data: { code: 'SERVICE_UNAVAILABLE', httpStatus } } } as never)

describe('asking again while the server is busy', () => {
  it('asks again twice after a 503 or no answer, 1 s then 2 s later', () => {
    expect([0, 1, 2].map((failures) => retryWhileBusy(failures, answered(503)))).toEqual([true, true, false])
    expect(retryWhileBusy(0, new TRPCClientError('fetch failed'))).toBe(true)
    expect([0, 1].map(busyRetryDelay)).toEqual([1000, 2000])
  })

  it('does not ask again when the answer was a refusal or the error is not the API\'s', () => {
    for (const status of [400, 404, 429, 500]) expect(retryWhileBusy(0, answered(status))).toBe(false)
    expect(retryWhileBusy(0, new Error('a bug of ours'))).toBe(false)
  })
})
