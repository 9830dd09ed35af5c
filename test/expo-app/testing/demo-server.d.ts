/** The demo server started for the tests: its address, and a way to stop it. */
export type DemoServer = { url: string; stop(): Promise<void> };

/** Starts the repository's demo server on 127.0.0.1 (see ./demo-server.js). */
export function startDemoServer(): Promise<DemoServer>;
