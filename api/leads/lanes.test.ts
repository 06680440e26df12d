import { setImmediate as nextTurn } from 'node:timers/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { drainInLanes } from './lanes.ts'

/** A promise and the functions that settle it, for a test that decides when each step ends. */
function gate() {
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  return { open, opened }
}

const unhandled: unknown[] = []
const record = (reason: unknown) => void unhandled.push(reason)
process.on('unhandledRejection', record)
afterEach(() => {
  unhandled.length = 0
})

describe('drainInLanes', () => {
  it('delivers every batch in up to `lanes` lanes at once, and ends when a claim comes back empty', async () => {
    const work = [[1], [2], [3], [4], [5]]
    const delivered: number[] = []
    let inHand = 0
    let most = 0
    await drainInLanes({
      lanes: 2,
      claim: async () => work.shift() ?? [],
      deliver: async (batch) => {
        most = Math.max(most, ++inHand)
        await new Promise((resolve) => setImmediate(resolve))
        delivered.push(...batch)
        inHand--
      },
      stopped: () => false,
    })
    expect(delivered.sort()).toEqual([1, 2, 3, 4, 5])
    expect(most).toBe(2)
  })

  it('waits for the lane still delivering when another lane fails to claim, then throws that failure, unhandled never', async () => {
    // Lane one holds its batch until told; lane two, begun meanwhile, fails to claim (the database
    // went away). That failure must wait, caught, until lane one is done.
    const first = gate()
    const lostDatabase = new Error('connect ECONNREFUSED 127.0.0.1:5432')
    let claims = 0
    let firstDone = false
    const drained = drainInLanes({
      lanes: 2,
      claim: async () => {
        claims++
        if (claims === 1) return ['a']
        throw lostDatabase
      },
      deliver: async () => {
        await first.opened
        firstDone = true
      },
      stopped: () => false,
    })
    const outcome = drained.then(
      () => 'resolved',
      (error: unknown) => error,
    )
    // Node reports an unhandled rejection once a macrotask's microtasks have run: five turns of
    // the event loop (not a time) give lane two's failure every chance to be reported.
    for (let turn = 0; turn < 5; turn++) await nextTurn()
    expect(claims).toBe(2)
    expect(unhandled).toEqual([])
    first.open()
    expect(await outcome).toBe(lostDatabase)
    expect(firstDone).toBe(true)
    expect(unhandled).toEqual([])
  })

  it('stops claiming once stopped, finishing the batches in hand', async () => {
    let stopped = false
    let claims = 0
    await drainInLanes({
      lanes: 1,
      claim: async () => [++claims],
      deliver: async () => {
        stopped = true
      },
      stopped: () => stopped,
    })
    expect(claims).toBe(1)
  })
})
