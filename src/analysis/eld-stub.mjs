// Stands in for eld inside analysis workers (see worker-hooks.mjs): language detection runs on
// the main thread only, so calling it in a worker is a bug and says so.
export const eld = {
  detect() {
    throw new Error('analysis worker: language detection runs on the main thread, not in workers')
  },
}
