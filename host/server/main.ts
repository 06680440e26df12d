/** `npm start`'s server: the API and the website in one process. */
import '../../api/production-mode.ts'
import { runServer } from '../../api/server.ts'
import { loadRenderer, mountSite } from './site.ts'

// The built renderer (React's server renderer and every page) starts loading now, so that its
// file is read while the database opens; mountSite waits for the same load. Development has no
// built renderer: Vite serves the sources.
if (process.env.NODE_ENV !== 'development') loadRenderer().catch(() => {})

await runServer({ mountSite })
