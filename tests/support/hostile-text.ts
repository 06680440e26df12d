/**
 * Hostile text for every public input (issue #26, point 1): long runs of what a field's pattern
 * accepts, ended by a character it does not, which is what makes a backtracking pattern try every
 * way of splitting the run (a phone of 95,000 "1"s and a "!" took 39 s). Each unit is a piece a
 * rule on visitor input might repeat: digits, spaces, separators, letters, an email's and a URL's
 * parts, accents and characters outside the Basic Multilingual Plane.
 */
const units = [
  '1',
  ' ',
  '\t',
  'a',
  'A',
  '-',
  '.',
  '(',
  '1 ',
  '1-',
  '1.',
  'a.',
  'a-',
  'a@',
  'a@a.',
  '+',
  '/',
  '%',
  ',',
  '|',
  ':',
  'x',
  'ext',
  'é',
  '😀',
  'e\u0301',
]
const endings = ['!']

/** About `length` characters of each hostile kind, each ending in a character no rule expects. */
export function hostileTexts(length = 100_000): { name: string; text: string }[] {
  return units.flatMap((unit) =>
    endings.map((end) => {
      const text = unit.repeat(Math.ceil((length - end.length) / unit.length)).slice(0, length - end.length) + end
      return { name: `${JSON.stringify(unit)} x ${text.length - end.length} + ${JSON.stringify(end)}`, text }
    }),
  )
}

/**
 * How long `work` keeps this process busy, robust to a loaded machine: the CPU time this process
 * spends (`process.cpuUsage`, every thread, user and system), which other processes' load hardly
 * changes, where wall-clock time on two shared cores can be ten times longer. The servers these
 * tests start run in this process, so for a request that is the server's work and the client's.
 * A time over `limitMs` is tried again, at most `attempts` times in all, and the best counts; one
 * over ten times the limit is the defect, not noise (a quadratic pattern costs seconds of CPU),
 * and is not tried again.
 */
export async function bestTimeMs(work: () => unknown, limitMs: number, attempts = 3): Promise<number> {
  let best = Number.POSITIVE_INFINITY
  for (let attempt = 0; attempt < attempts; attempt++) {
    const before = process.cpuUsage()
    await work()
    const { user, system } = process.cpuUsage(before)
    best = Math.min(best, (user + system) / 1000)
    if (best <= limitMs || best > 10 * limitMs) break
  }
  return best
}
