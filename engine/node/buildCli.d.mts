import type { Plugin } from 'esbuild';
/** In the CLI's bundles re2js is engine/node/lazyRe2.ts (required on first use). */
export declare const lazyRe2Plugin: Plugin;
/** Bundles `entry` (a path under engine/) into `outdir`; with `listInputs`, also the list of engine files it was made of. */
export declare function buildCli(entry: string, outdir: string, listInputs?: boolean): Promise<boolean>;
/** The installed package's binary, dist/cli/bin.cjs (engine/node/packageBin.cjs bundled). */
export declare function buildPackageBin(outdir: string): Promise<void>;
