/**
 * Takes work in up to `lanes` parallel lanes: a lane claims a batch, and while it delivers that
 * batch another lane starts (there was work, so there may be more), until a claim comes back
 * empty or `stopped()` says so. Every lane ends before this does, even when one fails; the first
 * failure is then thrown. A lane's failure is caught the moment it happens, so a lane that fails
 * while another is still delivering is never an unhandled rejection (which would end the process).
 */
export async function drainInLanes<T>(options: {
  lanes: number
  claim: () => Promise<readonly T[]>
  deliver: (batch: readonly T[]) => Promise<void>
  stopped: () => boolean
}): Promise<void> {
  const { lanes, claim, deliver, stopped } = options
  const running: Promise<void>[] = []
  const failures: unknown[] = []
  const lane = async (): Promise<void> => {
    for (let batch = await claim(); batch.length > 0; batch = stopped() ? [] : await claim()) {
      if (running.length < lanes && !stopped()) begin()
      await deliver(batch)
    }
  }
  const begin = () => {
    running.push(lane().catch((error: unknown) => void failures.push(error)))
  }
  begin()
  // Lanes begun while the earlier ones run are awaited too.
  for (let done = 0; done < running.length; ) {
    const waiting = running.slice(done)
    done = running.length
    await Promise.all(waiting)
  }
  if (failures.length > 0) throw failures[0]
}
