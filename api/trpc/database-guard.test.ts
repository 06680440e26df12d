import { TRPCError } from '@trpc/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeServices } from '../../tests/support/fake-services.ts'
import { readDeadlineMs, writeDeadlineMs } from '../db/unavailable.ts'
import { createContextInner } from './context.ts'
import { unavailableMessages } from '../http/errors.ts'
import { createCaller } from './router.ts'

/** What a visitor is told when the database stops answering mid-call (issue #7, point 3). */
describe('the database guard', () => {
  afterEach(() => void vi.useRealTimers())

  const lead = { firstName: 'Held', lastName: 'Call', email: 'held@example.com' }

  async function settleAfter<T>(call: Promise<T>, ms: number) {
    const outcome = call.then(
      (value) => ({ value, error: undefined }),
      (error: unknown) => ({ value: undefined, error }),
    )
    let settled = false
    void outcome.then(() => (settled = true))
    await vi.advanceTimersByTimeAsync(ms - 1)
    expect(settled, `settled before ${ms} ms`).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    return outcome
  }

  it('answers a read that hangs with 503 at the read deadline', async () => {
    vi.useFakeTimers()
    const services = fakeServices()
    services.hold()
    const { error } = await settleAfter(createCaller(createContextInner(services)).cart.featured(), readDeadlineMs)
    expect(error).toBeInstanceOf(TRPCError)
    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: unavailableMessages.query })
  })

  it('gives a submission longer, then says it could not be confirmed rather than lost', async () => {
    vi.useFakeTimers()
    const services = fakeServices()
    services.hold()
    const { error } = await settleAfter(createCaller(createContextInner(services)).inquiry.submit(lead), writeDeadlineMs)
    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: unavailableMessages.unconfirmed })
    expect(writeDeadlineMs).toBeGreaterThan(readDeadlineMs)
  })

  it('says "not sent" when the database refused the submission outright', async () => {
    const services = fakeServices()
    services.failWith(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))
    const error = await createCaller(createContextInner(services)).inquiry.submit(lead).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: unavailableMessages.mutation })
  })

  it('leaves other errors alone', async () => {
    const services = fakeServices()
    services.failWith(new Error('a bug'))
    const error = await createCaller(createContextInner(services)).cart.featured().catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'INTERNAL_SERVER_ERROR' })
  })
})
