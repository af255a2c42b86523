/** The prebuilt CLI's entry file. */
export declare const CLI_BUNDLE: string;
/** The forwarding command's bundle entry. */
export declare const FORWARD_BUNDLE: string;
/** A deciding hook call's bundle entry. */
export declare const HOOK_BUNDLE: string;
/** The bundle, when it exists and no engine source (or package.json) is newer than it; otherwise null. */
export declare function freshBundle(bundle?: string): string | null;
