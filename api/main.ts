/** The API alone, without the website: `node --import tsx api/main.ts`. */
import './production-mode.ts'
import { runServer } from './server.ts'

await runServer()
