// A minimal client of Firefox's Marionette protocol (the WebDriver classic commands Firefox runs
// itself; geckodriver is a translator in front of it), used for one thing Firefox's WebDriver BiDi
// does not offer: the WebAuthn extension commands (virtual authenticators). Frames are
// `<byte length>:<JSON>`; a command is `[0, id, name, parameters]`, its answer
// `[1, id, error, result]`. Marionette accepts commands while Puppeteer's BiDi session is active,
// because that session is the browser's one WebDriver session.
import { connect, type Socket } from "node:net";

export type MarionetteClient = {
  send(name: string, parameters: Record<string, unknown>): Promise<unknown>;
  close(): void;
};

export async function connectMarionette(port: number): Promise<MarionetteClient> {
  const socket: Socket = connect(port, "127.0.0.1");
  const waiting: Array<{ resolve(frame: unknown): void; reject(error: Error): void }> = [];
  let buffer = Buffer.alloc(0);
  const fail = (error: Error) => {
    for (const waiter of waiting.splice(0)) waiter.reject(error);
  };
  socket.on("data", (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const colon = buffer.indexOf(0x3a);
      if (colon < 0) return;
      const length = Number(buffer.subarray(0, colon).toString("ascii"));
      if (buffer.length < colon + 1 + length) return;
      const frame: unknown = JSON.parse(buffer.subarray(colon + 1, colon + 1 + length).toString());
      buffer = buffer.subarray(colon + 1 + length);
      waiting.shift()?.resolve(frame);
    }
  });
  socket.on("error", fail);
  socket.on("close", () => fail(new Error("Marionette closed the connection")));
  const nextFrame = () =>
    new Promise<unknown>((resolve, reject) => waiting.push({ resolve, reject }));

  const hello = (await nextFrame()) as { marionetteProtocol?: number };
  if (hello.marionetteProtocol !== 3)
    throw new Error(`unexpected Marionette hello: ${JSON.stringify(hello)}`);

  let lastId = 0;
  return {
    async send(name, parameters) {
      const id = ++lastId;
      const text = JSON.stringify([0, id, name, parameters]);
      const answer = nextFrame();
      socket.write(`${Buffer.byteLength(text)}:${text}`);
      const [, answerId, error, result] = (await answer) as [number, number, unknown, unknown];
      if (answerId !== id) throw new Error(`Marionette answered ${answerId} to ${id}`);
      if (error) throw new Error(`${name}: ${JSON.stringify(error)}`);
      return (result as { value?: unknown } | null)?.value ?? result;
    },
    close() {
      socket.destroy();
    },
  };
}
