/**
 * Imported first by the server's entries (api/main.ts, host/server/main.ts): with NODE_ENV unset the server is the production one,
 * and React, Express and the rest must load their production builds. React picks its build
 * when it is first loaded, so this has to run before anything imports it. `npm run dev` sets
 * NODE_ENV=development; tests set NODE_ENV=test.
 */
process.env.NODE_ENV ??= 'production'
