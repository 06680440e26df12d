/**
 * Writes every drawn image of the site: `node --import tsx scripts/artwork/generate.ts`.
 *
 *   host/public/images/carts/<slug>.svg|png  800x600, one per cart of domain/starting-inventory.csv
 *   host/public/images/carts/models/<model>.svg|png  800x600, one per model of domain/catalogue.ts
 *   host/public/images/carts/photos-coming.svg|png   800x600, a cart with no photos and no model
 *   host/public/images/logo.svg|png          400x400
 *   host/public/favicon.svg                  64x64
 *   host/public/images/showroom.svg          1200x800
 *   host/public/images/hero.svg              1600x900
 *   host/public/images/social-card.png       1200x630
 *
 * The output is deterministic; size budgets are checked and a breach fails the run.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startingInventory } from '../../api/carts/starting-inventory.ts'
import { modelDrawingPath, photosComingPicture } from '../../domain/cart-pictures.ts'
import { manufacturerPages } from '../../domain/catalogue.ts'
import { slugify } from '../../domain/slug.ts'
import { drawGolfCart } from './cart.ts'
import { cartOptionsFor } from './cart-options.ts'
import { heroSvg } from './hero.ts'
import { faviconSvg, logoSvg } from './logo.ts'
import { renderPngs, type RenderJob } from './render-png.ts'
import { photosComingSvg } from './photos-coming.ts'
import { showroomSvg } from './showroom.ts'
import { socialCardSvg } from './social.ts'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const publicDir = join(root, 'host', 'public')
const images = join(publicDir, 'images')

const CART_SVG_BUDGET = 6 * 1024
const HERO_SVG_BUDGET = 15 * 1024

interface Written {
  path: string
  bytes: number
}

async function main(): Promise<void> {
  await mkdir(join(images, 'carts'), { recursive: true })
  const written: Written[] = []
  const jobs: RenderJob[] = []
  const problems: string[] = []
  const write = async (path: string, text: string, budget?: number) => {
    const bytes = Buffer.byteLength(text)
    if (budget !== undefined && bytes > budget) problems.push(`${rel(path)} is ${bytes} bytes (budget ${budget})`)
    await writeFile(path, text)
    written.push({ path, bytes })
  }

  const slugs = new Set<string>()
  for (const { record } of startingInventory()) {
    const { title, imageUrl } = record
    if (!imageUrl) {
      problems.push(`${title} has no imageUrl: every seeded cart keeps a drawn image`)
      continue
    }
    const slug = slugify(title)
    if (slugs.has(slug)) problems.push(`duplicate slug ${slug}`)
    slugs.add(slug)
    const svg = drawGolfCart(cartOptionsFor(title))
    const file = join(publicDir, imageUrl)
    await write(file, svg, CART_SVG_BUDGET)
    jobs.push({ markup: svg, width: 800, height: 600, out: file.replace(/\.svg$/, '.png') })
  }

  // A cart without photos or a chosen drawing shows its model's (domain/cart-pictures.ts), in white.
  await mkdir(join(images, 'carts', 'models'), { recursive: true })
  const drawings = [
    ...Object.keys(manufacturerPages).map((model) => ({
      path: modelDrawingPath(model),
      svg: drawGolfCart({ ...cartOptionsFor(model), title: model, bodyColour: '#F5F6F7' }),
    })),
    { path: photosComingPicture, svg: photosComingSvg() },
  ]
  for (const { path, svg } of drawings) {
    const file = join(publicDir, path)
    await write(file, svg, CART_SVG_BUDGET)
    jobs.push({ markup: svg, width: 800, height: 600, out: file.replace(/\.svg$/, '.png') })
  }

  const logo = logoSvg()
  await write(join(images, 'logo.svg'), logo)
  await write(join(publicDir, 'favicon.svg'), faviconSvg())
  await write(join(images, 'showroom.svg'), showroomSvg())
  await write(join(images, 'hero.svg'), heroSvg(), HERO_SVG_BUDGET)
  jobs.push(
    { markup: logo, width: 400, height: 400, out: join(images, 'logo.png') },
    { markup: socialCardSvg(), width: 1200, height: 630, out: join(images, 'social-card.png') },
  )

  const sizes = await renderPngs(jobs)
  jobs.forEach((job, i) => written.push({ path: job.out, bytes: sizes[i]! }))
  report(written)
  if (problems.length > 0) {
    console.error(problems.join('\n'))
    process.exitCode = 1
  }
}

function rel(path: string): string {
  return relative(root, path)
}

function report(written: readonly Written[]): void {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
  for (const ext of ['.svg', '.png']) {
    const files = written.filter((w) => w.path.endsWith(ext))
    const total = files.reduce((sum, w) => sum + w.bytes, 0)
    const largest = files.reduce((a, b) => (b.bytes > a.bytes ? b : a))
    console.log(`${files.length} ${ext} files, ${kb(total)} in all, largest ${rel(largest.path)} (${kb(largest.bytes)})`)
  }
}

await main()
