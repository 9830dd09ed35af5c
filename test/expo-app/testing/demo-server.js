// The backend the app's tests talk to: the repository's demo server (apps/demo/server: its relay
// at /api/grid, its own endpoints at /api/demo, the emulator in process), started on 127.0.0.1 on
// a free port as `npm run demo` starts it, and stopped after the tests. It stands in for the app's
// own backend; nothing else of the repository is used. Plain JavaScript run by Node (its types
// are in ./demo-server.d.ts), so the app's TypeScript needs no Node types.
const { spawn } = require('node:child_process');
const { join } = require('node:path');

const root = join(__dirname, '..', '..', '..');

/** Starts the demo server; resolves with its address and a way to stop it. */
async function startDemoServer() {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'apps', 'demo', 'server', 'main.ts')],
    {
      cwd: root,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    }
  );
  const address = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`no demo server: ${out}`));
    }, 60_000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const found = /Signet demo on (http:\/\/\S+?)\s/.exec(out);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`the demo server exited (${code}): ${out}`)));
  });
  return {
    url: `http://127.0.0.1:${new URL(address).port}`,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

module.exports = { startDemoServer };
