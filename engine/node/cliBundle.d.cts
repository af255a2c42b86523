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
