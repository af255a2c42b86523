/** For an agent's hook call: every uncaught exception or rejection from now on ends in the agent's block form [P12][AG4]. */
export declare function crashFailsClosed(agent?: string): void;
