// Entry point of each analysis worker thread. Worker threads do not reliably inherit tsx's
// loader on Node 20 (neither `tsx src/server.ts` nor `node --import tsx` makes a worker able
// to import a .ts file), so the worker registers tsx itself before loading the TypeScript task,
// and its own resolution hooks that keep the main-thread-only language detector out of it.
// This file is plain JavaScript on purpose: it is the one module loaded without a loader.
import { register as registerHooks } from 'node:module'
import { register } from 'tsx/esm/api'

register()
registerHooks('./worker-hooks.mjs', import.meta.url)
const task = await import('./worker.ts')

export default task.default
