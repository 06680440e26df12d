import { usePhotoEncoders } from '../../api/photos/processing.ts'
import { usePasswordParameters } from '../../api/users/passwords.ts'

/**
 * A set-up file of the test projects that start servers (vitest.config.ts): two kinds of work
 * that cost the same CPU whatever a test checks are made lighter in the test's own process.
 *
 * - Staff password hashes use scrypt at N=2^10, r=8, p=1, about 2 ms each instead of about
 *   175 ms (api/users/passwords.ts, `usePasswordParameters`, decision 0009).
 * - Photos are encoded at the least effort: AVIF and WebP effort 0, JPEG without mozjpeg's
 *   trellis, about 0.5 s of CPU a phone photo instead of about 3.5 s (api/photos/processing.ts,
 *   `usePhotoEncoders`, decision 0033).
 *
 * Servers and commands that a test spawns, `api/users/passwords.test.ts` and
 * `api/photos/processing.test.ts` keep the real parameters.
 */
usePasswordParameters({ N: 2 ** 10, r: 8, p: 1 })
usePhotoEncoders({
  avif: { quality: 45, effort: 0, chromaSubsampling: '4:2:0' },
  webp: { quality: 72, effort: 0 },
  jpeg: { quality: 74, mozjpeg: false, progressive: true },
})
