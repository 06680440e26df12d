import { launchSharedBrowser } from './browser.ts'

/**
 * One Chromium for the whole run: every test file's `launchBrowser()` connects to it and gets
 * contexts of its own, instead of starting a browser of its own (seconds each on this machine).
 */
export default async function setup() {
  if (process.env.GC_TEST_BROWSER) return
  return launchSharedBrowser()
}
