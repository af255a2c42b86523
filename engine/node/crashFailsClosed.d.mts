/** For a `claude-hook` call: every uncaught exception or rejection from now on is exit 2 with the reason [P12]. */
export declare function crashFailsClosed(): void;
