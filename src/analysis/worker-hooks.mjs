// Module resolution hooks of the analysis workers. Workers never detect the language (the main
// thread does, before the quota), yet importing the engine would load eld's n-gram tables
// through src/nlp/language.ts: about 100 MB per worker. Here that import resolves to a stub.
const STUB = new URL('./eld-stub.mjs', import.meta.url).href

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'eld/small') return { url: STUB, shortCircuit: true }
  return nextResolve(specifier, context)
}
