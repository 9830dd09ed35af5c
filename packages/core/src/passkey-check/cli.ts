// The command line of the passkey setup checker (./check.ts), run by ./bin.ts for a terminal or
// CI. Exit status 0 when the setup is right, 1 when a problem was found, 2 for a usage error.
import { checkPasskeySetup, type PasskeyCheckOptions } from "./check.js";

const USAGE = `Usage: signet check-passkeys --rp-id <domain> [--ios TEAMID.bundle.id]… [--android package:SHA256]… [--origin https://…]… [--allow-private-addresses] [--json]

Checks what iOS and Android need before passkeys work in your apps:
  https://<rp-id>/.well-known/apple-app-site-association  (webcredentials)
  https://<rp-id>/.well-known/assetlinks.json             (get_login_creds)
and that each web origin may use the rp id (or is listed in /.well-known/webauthn).

Options:
  --rp-id <domain>        the relying-party id passkeys are created for
  --ios <TEAMID.bundle>   an iOS app (repeatable)
  --android <pkg:SHA256>  an Android app and its signing certificate's SHA-256 (repeatable)
  --origin <origin>       a web origin that uses the passkeys (repeatable)
  --base-url <url>        fetch the files from here instead of https://<rp-id> (tests)
  --allow-private-addresses
                          fetch from hosts on private, loopback or link-local addresses too
                          (a test or staging server); refused by default
  --json                  print the result as JSON

Reads at most 256 KiB of each file within 10 s; prints what it read as plain text.
`;

/** Where the CLI writes; the process's by default. */
export type CliIo = {
  out(line: string): void;
  err(line: string): void;
  fetch?: typeof fetch;
};

/** Runs the CLI on `args` (without node and the script); resolves with the exit status. */
export async function main(args: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = args;
  if (command === "--help" || command === "-h" || command === undefined) {
    io.out(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command !== "check-passkeys") {
    io.err(`Unknown command "${command}".\n\n${USAGE}`);
    return 2;
  }
  const ios: string[] = [];
  const android: string[] = [];
  const origins: string[] = [];
  let rpId: string | undefined;
  let baseUrl: string | undefined;
  let json = false;
  let allowPrivateAddresses = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? arg.split(/=(.*)/s) : [arg];
    if (flag === "--json") {
      json = true;
      continue;
    }
    if (flag === "--allow-private-addresses") {
      allowPrivateAddresses = true;
      continue;
    }
    if (flag === "--help" || flag === "-h") {
      io.out(USAGE);
      return 0;
    }
    const value = inline ?? rest[++i];
    if (value === undefined || value.startsWith("--")) {
      io.err(`${flag} needs a value.\n\n${USAGE}`);
      return 2;
    }
    if (flag === "--rp-id") rpId = value;
    else if (flag === "--ios") ios.push(value);
    else if (flag === "--android") android.push(value);
    else if (flag === "--origin") origins.push(value);
    else if (flag === "--base-url") baseUrl = value;
    else {
      io.err(`Unknown option "${flag}".\n\n${USAGE}`);
      return 2;
    }
  }
  if (rpId === undefined) {
    io.err(`--rp-id is required.\n\n${USAGE}`);
    return 2;
  }
  if (ios.length + android.length + origins.length === 0) {
    io.err(`Nothing to check: pass --ios, --android or --origin.\n\n${USAGE}`);
    return 2;
  }
  const options: PasskeyCheckOptions = { rpId, ios, android, origins };
  if (baseUrl !== undefined) options.baseUrl = baseUrl;
  if (allowPrivateAddresses) options.allowPrivateAddresses = true;
  if (io.fetch !== undefined) options.fetch = io.fetch;
  const result = await checkPasskeySetup(options);
  if (json) io.out(JSON.stringify(result, null, 2));
  else {
    for (const line of result.passed) io.out(`ok    ${line}`);
    for (const problem of result.problems) io.err(`FAIL  ${problem.code}: ${problem.message}`);
    io.out(
      result.ok
        ? `Passkey setup of ${rpId}: no problem found.`
        : `Passkey setup of ${rpId}: ${result.problems.length} problem${result.problems.length === 1 ? "" : "s"}.`,
    );
  }
  return result.ok ? 0 : 1;
}
