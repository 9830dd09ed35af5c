// Jest global teardown: stops the demo server started by ./server.mjs.
export default async function teardown() {
  const child = globalThis.__signetDemoServer;
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
}
