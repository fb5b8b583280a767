// The fallback entry point of the analysis worker threads, used when the plain-JavaScript bundle
// (src/bundle.mjs) cannot be built. Worker threads do not reliably inherit tsx's
// loader on Node 20 (neither `tsx src/server.ts` nor `node --import tsx` makes a worker able
// to import a .ts file), so the worker registers tsx itself before loading the TypeScript task.
// This file is plain JavaScript on purpose: it is the one module loaded without a loader.
// (Workers import the engine, which re-exports detectLanguage, but never call it, so eld's
// n-gram table, loaded on first use, never loads here: see src/nlp/language.ts.)
import { register } from 'tsx/esm/api'

register()
const task = await import('./worker.ts')

export default task.default
