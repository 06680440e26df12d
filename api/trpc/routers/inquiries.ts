import { inquiryInput } from '../../../domain/inquiry.ts'
import { publicProcedure, router } from '../init.ts'

export const inquiriesRouter = router({
  /** Stores a contact / quote inquiry; the page it came from defaults to the Referer. */
  submit: publicProcedure.input(inquiryInput).mutation(({ ctx, input }) => {
    const sourceUrl = input.sourceUrl || refererUrl(ctx.request.referer)
    return ctx.inquiries.add({ ...input, sourceUrl })
  }),
})

function refererUrl(referer: string | undefined): string | undefined {
  if (!referer || referer.length > 2000) return undefined
  return /^https?:\/\/\S+$/i.test(referer) ? referer : undefined
}
