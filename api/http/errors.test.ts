import { TRPCError } from '@trpc/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'
import { errorAnswer, FieldError, fieldRefused, HttpError, internalErrorMessage, RateLimitedError, unavailableMessages } from './errors.ts'
import { OriginRefusedError } from './origin.ts'

/** The one error boundary (issue #11): every kind of error, one shape. */
describe('errorAnswer', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })
  const deadline = Object.assign(new Error('no answer from the database within 5000 ms'), { code: 'DATABASE_DEADLINE' })

  it.each([
    ['a schema refusal', new TRPCError({ code: 'BAD_REQUEST', message: 'x', cause: Object.assign(new Error('zod'), { issues: [{ path: ['email'], message: 'Enter a valid email' }] }) }), 400, 'Invalid input: email: Enter a valid email', undefined],
    ['a rate limit', new TRPCError({ code: 'TOO_MANY_REQUESTS', message: 'Too many messages', cause: new RateLimitedError(120) }), 429, 'Too many messages', 120],
    ['a missing cart', new TRPCError({ code: 'NOT_FOUND', message: 'No golf cart has the slug "x"' }), 404, 'No golf cart has the slug "x"', undefined],
    ['a bug inside a procedure', new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'relation "x" does not exist' }), 500, internalErrorMessage, undefined],
    ['a bug anywhere else', new TypeError('cannot read properties of undefined'), 500, internalErrorMessage, undefined],
    ['a refused database on a read', refused, 503, unavailableMessages.query, 30],
    ['a refused origin', new OriginRefusedError({ allowed: false, origin: 'https://evil.test', message: 'Requests from https://evil.test are not accepted by this site.' }), 403, 'Requests from https://evil.test are not accepted by this site.', undefined],
    ['broken JSON', Object.assign(new SyntaxError('Unexpected token'), { type: 'entity.parse.failed', status: 400 }), 400, 'The request body is not valid JSON', undefined],
    ['a path that is not a URL', new URIError('URI malformed'), 400, 'This address is not a valid URL: it has a broken %-escape.', undefined],
    ['a refusal of our own', new HttpError(409, 'Already there', 5), 409, 'Already there', 5],
  ])('turns %s into the one shape', (_, error, status, message, retryAfter) => {
    const answer = errorAnswer(error)
    expect(answer).toMatchObject({ status, body: { message, issues: expect.any(Array) } })
    expect(answer.retryAfter).toBe(retryAfter)
    expect(JSON.stringify(answer.body)).not.toMatch(/ECONNREFUSED|relation|undefined|stack/)
  })

  it('tells a visitor whose message met a refused database that it was not sent, and a silent one that it is unconfirmed', () => {
    expect(errorAnswer(refused, { mutation: true }).body.message).toBe(unavailableMessages.mutation)
    expect(errorAnswer(deadline, { mutation: true }).body.message).toBe(unavailableMessages.unconfirmed)
    // A staff save is a change, not a visitor's message: it says so, and sends no one to the phone.
    expect(errorAnswer(refused, { mutation: true, staff: true }).body.message).toBe(unavailableMessages.staffMutation)
    expect(errorAnswer(deadline, { mutation: true, staff: true }).body.message).toBe(unavailableMessages.staffUnconfirmed)
    expect(unavailableMessages.staffMutation).not.toMatch(/message/)
  })

  it('tells a visitor whose message the database refused for a full disk or while read-only that it was not sent (503, not 500)', () => {
    // What PostgreSQL and the embedded database raise on a full disk, wrapped as the driver and tRPC do.
    const diskFull = new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: Object.assign(new Error('could not extend file "base/5/16807": No space left on device'), { code: '53100' }) })
    const readOnly = Object.assign(new Error('cannot execute INSERT in a read-only transaction'), { code: '25006' })
    for (const error of [diskFull.cause, readOnly]) {
      const answer = errorAnswer(error, { mutation: true })
      expect(answer).toMatchObject({ status: 503, body: { message: unavailableMessages.mutation }, retryAfter: 30 })
      expect(answer.body.message).toMatch(/not sent.*call \(888\) 555-0100/)
    }
  })

  it("puts a store's or a procedure's own field refusal beside its field, as a schema's issues are", () => {
    expect(errorAnswer(fieldRefused('rental.zip', 'We deliver in New Jersey only'))).toMatchObject({
      status: 400,
      body: { message: 'Invalid input: rental.zip: We deliver in New Jersey only', issues: [{ path: 'rental.zip', message: 'We deliver in New Jersey only' }] },
    })
    const both = new FieldError([
      { path: 'stockNumber', message: 'This stock number was just given to another cart' },
      { path: 'vin', message: 'This VIN was just given to another cart' },
    ])
    const answer = errorAnswer(new TRPCError({ code: 'BAD_REQUEST', message: both.message, cause: both }))
    expect(answer.body.issues).toEqual(both.issues)
    expect(answer.failure).toBeUndefined()
  })

  it('hands back our own failures for the log, and nothing for the client\'s mistakes', () => {
    expect(errorAnswer(new TypeError('bug')).failure).toBeInstanceOf(TypeError)
    expect(errorAnswer(refused).failure).toBe(refused)
    expect(errorAnswer(new HttpError(400, 'bad')).failure).toBeUndefined()
  })
})

describe('addresses that are not what they seem', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer('pglite', { LOG_LEVEL: 'silent' })
  })
  afterAll(() => server?.close())

  const expectJsonError = async (res: Response, status: number, message: RegExp | string) => {
    expect(res.status).toBe(status)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'")
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    const body = await res.json()
    expect(body).toEqual({ message: expect.stringMatching(message), issues: [] })
  }

  it.each(['/widgets/%c0%ae', '/widgets/x%ZZ', '/images/%c0', '/api/golf-carts/slug/%c0', '/%E0%A4%A'])(
    'answers the malformed %s in the JSON error shape with the usual headers',
    async (path) => {
      await expectJsonError(await fetch(`${server.url}${path}`), 400, 'This address is not a valid URL: it has a broken %-escape.')
    },
  )

  it.each(['/images/..%2f..%2fpackage.json', '/images/%2e%2e%2f%2e%2e%2fpackage.json', '/images/carts/..%2F..%2F..%2Fapi%2Fserver.ts'])(
    'refuses the encoded traversal %s with a sentence that says so',
    async (path) => {
      await expectJsonError(await fetch(`${server.url}${path}`), 403, /is not a file this site serves\.$/)
    },
  )

  it('says a missing image is missing', async () => {
    await expectJsonError(await fetch(`${server.url}/images/no-such-cart.svg`), 404, 'No file at /images/no-such-cart.svg')
  })
})
