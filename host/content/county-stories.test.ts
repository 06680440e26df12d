import { describe, expect, it } from 'vitest'
import { counties } from '../../domain/counties.ts'
import { countyStories } from './county-stories.ts'

describe('county stories', () => {
  it('name both of the county story towns the product lists', () => {
    for (const county of counties) {
      const story = countyStories[county.value]
      for (const town of county.storyTowns) expect(story, county.value).toContain(town)
    }
  })
})
