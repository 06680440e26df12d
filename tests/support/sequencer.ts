import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * The projects whose files take longest come first (vitest.config.ts): the long files (the
 * browser tests and the API's files that wait), then the site's and the API's, the components and
 * the pure rules last, so the run ends on short files instead of one long file running alone.
 * Vitest's own order (kept inside each project: the files that failed last time, then the longest
 * last time, then the largest) puts the projects in alphabetical order. On a fresh clone, with no
 * timings kept, the site's crawl (about a minute) then started among the last files and ran on
 * after the others had finished.
 */
const projectOrder = ['long', 'site', 'api', 'components', 'unit']

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = projectOrder.indexOf(file.project.name)
      return index === -1 ? projectOrder.length : index
    }
    // Array sort is stable: each project keeps the order vitest gave its files.
    const sorted = (await super.sort(files)).sort((a, b) => rank(a) - rank(b))
    const isLong = (file: TestSpecification) => file.project.name === 'long'
    return [...spreadWaiting(sorted.filter(isLong)), ...sorted.filter((file) => !isLong(file))]
  }
}

/**
 * The long project's files that wait (those outside tests/browser/) spread evenly among its
 * browser files, in the order each kind came: about one of them runs at a time, beside browser
 * files that keep the cores busy. Started together, as the largest files of a fresh clone did
 * in the api project, they waited together and the cores idled.
 */
function spreadWaiting(files: TestSpecification[]): TestSpecification[] {
  const isBrowser = (file: TestSpecification) => file.moduleId.includes('/tests/browser/')
  const browser = files.filter(isBrowser)
  const waiting = files.filter((file) => !isBrowser(file))
  if (browser.length === 0) return waiting
  const spread: TestSpecification[] = []
  let placed = 0
  browser.forEach((file, index) => {
    spread.push(file)
    // After the n-th browser file, n/len of the waiting files have their place.
    for (const due = Math.round(((index + 1) * waiting.length) / browser.length); placed < due; placed++) spread.push(waiting[placed]!)
  })
  return spread
}
