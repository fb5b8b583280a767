/** See bundle.mjs. */
export declare const BUNDLE_DIR: string
export declare function bundleEntry(entry: string | URL, name: string, dir?: string): Promise<string>
