/** `npm start`'s server: the API and the website in one process. */
import '../../api/production-mode.ts'
import { runServer } from '../../api/server.ts'
import { mountSite } from './site.ts'

await runServer({ mountSite })
