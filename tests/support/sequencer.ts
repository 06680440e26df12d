import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * The projects whose files take longest come first (vitest.config.ts): the long files (the
 * API's files that wait), then the site's and the API's, the components and
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
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b))
  }
}

