/** The prebuilt CLI's entry file. */
export declare const CLI_BUNDLE: string;
/** The forwarding command's bundle entry. */
export declare const FORWARD_BUNDLE: string;
/** A deciding hook call's bundle entry. */
export declare const HOOK_BUNDLE: string;
/** The bundle, when it exists and no engine source (or package.json) is newer than it; otherwise null. */
export declare function freshBundle(bundle?: string): string | null;
/** The fast hook route's CommonJS bundle (hookMain.ts `hookFastMain`). */
export declare const HOOK_FAST_BUNDLE: string;
/** A CommonJS bundle run from V8's code cache kept beside it; `keep()` writes the cache when there was none. */
export declare function loadWithCodeCache(file: string, cacheFile?: string): { exports: Record<string, unknown>; keep(): void; cached: boolean; rejected: boolean };
/** The commands that run the CLI from its CommonJS bundle (readingMain.ts) through V8's code cache. */
export declare const READING_COMMANDS: ReadonlySet<string>;
/** The CLI as one CommonJS file, for READING_COMMANDS. */
export declare const READING_BUNDLE: string;
/** The code cache's file beside a bundle (named by its size and mtime, and `tag`: one per command). */
export declare function codeCacheBeside(file: string, tag?: string): string;
