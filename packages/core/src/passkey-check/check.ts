// The passkey setup checker (issue #24 B): before launch or in CI, reads the association files a
// relying party serves for its apps and says, in words a developer can act on, why a native
// passkey call would fail with an opaque error. Fetch only (and the platform's DNS where there is
// one, ./address.ts): runs in Node, Deno, Bun or a browser tool; no secret is read or printed.
// What it reads is another party's: it reads at most MAX_FILE_BYTES of each file within the time
// limit, fetches only public addresses unless told, and reports it as plain text.

import { createFileFetcher } from "./fetchFile.js";
import type { PasskeyCheckProblem } from "./types.js";

export { MAX_FILE_BYTES } from "./fetchFile.js";
export type { PasskeyCheckProblem, PasskeyCheckProblemCode } from "./types.js";

/** An iOS app: the team id and bundle id, as `TEAMID.bundle.id` in `webcredentials.apps`. */
export type PasskeyCheckIosApp = { teamId: string; bundleId: string };

/** An Android app: its package name and the SHA-256 fingerprint of its signing certificate. */
export type PasskeyCheckAndroidApp = { packageName: string; sha256: string };

/** What {@link checkPasskeySetup} checks. */
export type PasskeyCheckOptions = {
  /** The relying-party id passkeys are created for (a domain, such as `example.com`). */
  rpId: string;
  /** iOS apps: `TEAMID.bundle.id` strings or objects. */
  ios?: readonly (string | PasskeyCheckIosApp)[] | undefined;
  /** Android apps: `package:SHA256` strings (the fingerprint colon-separated hex) or objects. */
  android?: readonly (string | PasskeyCheckAndroidApp)[] | undefined;
  /** Web origins that use the passkeys, such as `https://app.example.com`. */
  origins?: readonly string[] | undefined;
  /**
   * Where the files are fetched from instead of `https://<rpId>`: for tests against a local
   * server. Real checks need https, which is what the platforms fetch.
   */
  baseUrl?: string | undefined;
  /** The fetch to use. Default: the global one. */
  fetch?: typeof fetch | undefined;
  /** Per-file time limit in milliseconds, the body's reading included. Default 10 000. */
  timeoutMs?: number | undefined;
  /**
   * Fetch from hosts that are or resolve to non-public addresses (loopback, private, link-local,
   * unique-local IPv6, shared, documentation, multicast, reserved): off by default, so that a
   * checker given a name from elsewhere (a CI variable, a form) reaches no internal service. Turn it
   * on for a test server on 127.0.0.1 or a staging host on a private network.
   */
  allowPrivateAddresses?: boolean | undefined;
  /**
   * Resolves a host name to its addresses for that check. Default: `node:dns` where the runtime
   * has it (Node, Deno, Bun); elsewhere only address literals and `localhost` are judged.
   */
  resolveHost?: ((hostname: string) => Promise<readonly string[]>) | undefined;
};

/** The outcome: `ok` when no problem was found; `passed` lists what was checked and is fine. */
export type PasskeyCheckResult = {
  ok: boolean;
  problems: PasskeyCheckProblem[];
  passed: string[];
};

const AASA = "/.well-known/apple-app-site-association";
const ASSETLINKS = "/.well-known/assetlinks.json";
const WEBAUTHN = "/.well-known/webauthn";
const LOGIN_CREDS = "delegate_permission/common.get_login_creds";

/** How many entries of a list read from a file a message names. */
const SHOWN = 10;

// Control characters (C0, DEL, C1) and the bidirectional overrides that reorder a terminal line.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it escapes
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text as plain text: every control character (terminal escapes included) and bidirectional
 * override written as a visible `\uXXXX`. What a fetched file says is printed only through it.
 *
 * @example
 * ```ts
 * plainText("ok\u001b[2Jgone"); // "ok\\u001b[2Jgone"
 * ```
 */
export function plainText(text: string): string {
  return text.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Values read from a file, quoted, at most SHOWN of them. */
function listed(values: readonly string[]): string {
  const shown = values.slice(0, SHOWN).map((v) => `"${v.slice(0, 200)}"`);
  return values.length > SHOWN
    ? `${shown.join(", ")} and ${values.length - SHOWN} more`
    : shown.join(", ");
}

/** `AB:CD:…` (32 bytes, upper case) or undefined for anything else. */
export function normalizeFingerprint(value: string): string | undefined {
  const parts = value.trim().split(":");
  if (parts.length !== 32 || !parts.every((part) => /^[0-9a-fA-F]{2}$/.test(part)))
    return undefined;
  return parts.join(":").toUpperCase();
}

function parseIos(app: string | PasskeyCheckIosApp): PasskeyCheckIosApp | string {
  const value =
    typeof app === "string"
      ? {
          teamId: app.slice(0, app.indexOf(".")),
          bundleId: app.slice(app.indexOf(".") + 1),
        }
      : app;
  if (!/^[A-Z0-9]{10}$/.test(value.teamId) || !/^[A-Za-z0-9.-]+$/.test(value.bundleId)) {
    return `iOS app "${typeof app === "string" ? app : `${app.teamId}.${app.bundleId}`}" is not TEAMID.bundle.id (a 10-character team id from the Apple Developer account, then the bundle id)`;
  }
  return value;
}

function parseAndroid(app: string | PasskeyCheckAndroidApp): PasskeyCheckAndroidApp | string {
  const value =
    typeof app === "string"
      ? { packageName: app.slice(0, app.indexOf(":")), sha256: app.slice(app.indexOf(":") + 1) }
      : app;
  const sha256 = normalizeFingerprint(value.sha256);
  if (!/^[A-Za-z][\w]*(\.[A-Za-z][\w]*)+$/.test(value.packageName) || !sha256) {
    return `Android app "${typeof app === "string" ? app : `${app.packageName}:${app.sha256}`}" is not package:SHA256 (the package name, then the signing certificate's SHA-256 as 32 colon-separated hex bytes, as \`keytool -list -v\` or \`./gradlew signingReport\` prints it)`;
  }
  return { packageName: value.packageName, sha256 };
}

/** Whether `origin` may use passkeys of `rpId` without related origins (WebAuthn §5.1.3). */
function originMatches(origin: URL, rpId: string): boolean {
  const host = origin.hostname.toLowerCase();
  const id = rpId.toLowerCase();
  const secure =
    origin.protocol === "https:" || (origin.protocol === "http:" && host === "localhost");
  return secure && (host === id || host.endsWith(`.${id}`));
}

/**
 * Checks a relying party's passkey setup for native apps and web origins: fetches
 * `https://<rpId>/.well-known/apple-app-site-association` (iOS `webcredentials`) and
 * `/.well-known/assetlinks.json` (Android `get_login_creds`), and, for origins outside the rp id,
 * `/.well-known/webauthn` (related origins). Each problem says what to change. Never throws: bad
 * options, an unreachable host, a slow or endless answer are each a problem in the result. Reads at
 * most `MAX_FILE_BYTES` of a file within `timeoutMs`, fetches from public addresses only unless
 * `allowPrivateAddresses`, and reports what it read as plain text (control characters escaped).
 *
 * @param options - `rpId`, `ios`, `android`, `origins`; `baseUrl`, `fetch` and
 *   `allowPrivateAddresses` for tests against a local server.
 * @returns `{ ok, problems, passed }`.
 * @example
 * ```ts
 * const result = await checkPasskeySetup({
 *   rpId: "example.com",
 *   ios: ["ABCDE12345.com.example.wallet"],
 *   android: ["com.example.wallet:FA:C6:17:…"],
 *   origins: ["https://example.com"],
 * });
 * for (const problem of result.problems) console.error(problem.message);
 * ```
 */
export async function checkPasskeySetup(options: PasskeyCheckOptions): Promise<PasskeyCheckResult> {
  let result: PasskeyCheckResult;
  try {
    result =
      typeof options === "object" && options !== null
        ? await check(options)
        : {
            ok: false,
            problems: [
              {
                code: "INVALID_INPUT",
                subject: String(options),
                message:
                  "checkPasskeySetup expected an options object ({ rpId, ios, android, origins }).",
              },
            ],
            passed: [],
          };
  } catch (cause) {
    // A bug or a fetch that throws synchronously: still a result, never an exception.
    result = {
      ok: false,
      problems: [
        {
          code: "FILE_UNREACHABLE",
          subject: String(options?.rpId),
          message: `The check could not run: ${cause instanceof Error ? cause.message : String(cause)}.`,
        },
      ],
      passed: [],
    };
  }
  // What a fetched file says reaches a terminal only as plain text.
  return {
    ok: result.ok,
    problems: result.problems.map((p) => ({
      code: p.code,
      subject: plainText(p.subject),
      message: plainText(p.message),
    })),
    passed: result.passed.map(plainText),
  };
}

async function check(options: PasskeyCheckOptions): Promise<PasskeyCheckResult> {
  const problems: PasskeyCheckProblem[] = [];
  const passed: string[] = [];
  const rpId = String(options.rpId ?? "")
    .trim()
    .toLowerCase();
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(rpId) || rpId.includes("..")) {
    problems.push({
      code: "INVALID_INPUT",
      subject: String(options.rpId),
      message: `The relying-party id "${String(options.rpId)}" is not a domain: pass the host passkeys are created for, such as example.com (no scheme, port or path).`,
    });
    return { ok: false, problems, passed };
  }
  const ios: PasskeyCheckIosApp[] = [];
  for (const app of options.ios ?? []) {
    const parsed = parseIos(app);
    if (typeof parsed === "string")
      problems.push({ code: "INVALID_INPUT", subject: String(app), message: parsed });
    else ios.push(parsed);
  }
  const android: PasskeyCheckAndroidApp[] = [];
  for (const app of options.android ?? []) {
    const parsed = parseAndroid(app);
    if (typeof parsed === "string")
      problems.push({ code: "INVALID_INPUT", subject: String(app), message: parsed });
    else android.push(parsed);
  }
  const base = (options.baseUrl ?? `https://${rpId}`).replace(/\/+$/, "");
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;

  const get = createFileFetcher({
    base,
    rpId,
    fetch: doFetch,
    timeoutMs,
    allowPrivateAddresses: options.allowPrivateAddresses === true,
    resolveHost: options.resolveHost,
  });

  if (ios.length > 0) {
    const file = await get(
      AASA,
      "the apple-app-site-association file",
      "Apple's CDN (which iOS asks for webcredentials)",
    );
    if (!file.ok) problems.push(file.problem);
    else {
      const given = (file.json as { webcredentials?: { apps?: unknown } } | null)?.webcredentials
        ?.apps;
      const apps = Array.isArray(given)
        ? given.filter((app): app is string => typeof app === "string")
        : [];
      for (const app of ios) {
        const id = `${app.teamId}.${app.bundleId}`;
        if (apps.includes(id)) passed.push(`iOS ${id} is in webcredentials.apps of ${file.url}`);
        else
          problems.push({
            code: "WEBCREDENTIALS_MISSING_APP",
            subject: file.url,
            message: `${file.url} does not list "${id}" in webcredentials.apps${
              apps.length ? ` (it lists ${listed(apps)})` : ""
            }: add {"webcredentials":{"apps":["${id}"]}}, and give the app the Associated Domains entitlement "webcredentials:${rpId}". iOS caches the file: reinstall the app after fixing it.`,
          });
      }
    }
  }

  if (android.length > 0) {
    const file = await get(ASSETLINKS, "assetlinks.json", "Android's Digital Asset Links check");
    if (!file.ok) problems.push(file.problem);
    else {
      type Statement = {
        relation?: unknown;
        target?: {
          namespace?: unknown;
          package_name?: unknown;
          sha256_cert_fingerprints?: unknown;
        };
      };
      const statements = Array.isArray(file.json) ? (file.json as Statement[]) : [];
      if (!Array.isArray(file.json)) {
        problems.push({
          code: "NOT_JSON",
          subject: file.url,
          message: `${file.url} must be a JSON array of statements ([{"relation":[…],"target":{…}}]).`,
        });
      }
      for (const app of android) {
        const forPackage = statements.filter(
          (s) =>
            s?.target?.namespace === "android_app" && s.target.package_name === app.packageName,
        );
        const label = `${app.packageName}`;
        if (forPackage.length === 0) {
          problems.push({
            code: "ASSETLINKS_MISSING_APP",
            subject: file.url,
            message: `${file.url} has no statement for the Android app ${label}: add {"relation":["${LOGIN_CREDS}"],"target":{"namespace":"android_app","package_name":"${app.packageName}","sha256_cert_fingerprints":["${app.sha256}"]}}.`,
          });
          continue;
        }
        const fingerprints = forPackage.flatMap((s) =>
          Array.isArray(s.target?.sha256_cert_fingerprints)
            ? (s.target.sha256_cert_fingerprints as unknown[]).filter(
                (f): f is string => typeof f === "string",
              )
            : [],
        );
        const matching = forPackage.filter(
          (s) =>
            Array.isArray(s.target?.sha256_cert_fingerprints) &&
            (s.target.sha256_cert_fingerprints as unknown[]).some(
              (f) => typeof f === "string" && normalizeFingerprint(f) === app.sha256,
            ),
        );
        if (matching.length === 0) {
          problems.push({
            code: "FINGERPRINT_MISMATCH",
            subject: file.url,
            message: `${file.url} lists ${label} with ${
              fingerprints.length
                ? `the fingerprints ${listed(fingerprints).replaceAll('"', "")}`
                : "no sha256_cert_fingerprints"
            }, not ${app.sha256}: add the SHA-256 of the certificate the installed app is signed with (with Play App Signing, the "App signing key certificate" in the Play Console, not the upload key; debug builds use the debug keystore's).`,
          });
          continue;
        }
        const withRelation = matching.some(
          (s) => Array.isArray(s.relation) && s.relation.includes(LOGIN_CREDS),
        );
        if (withRelation)
          passed.push(`Android ${label} with ${app.sha256} may use passkeys of ${rpId}`);
        else
          problems.push({
            code: "ASSETLINKS_MISSING_RELATION",
            subject: file.url,
            message: `${file.url} lists ${label} with this fingerprint but without the relation "${LOGIN_CREDS}" (passkeys need it; "handle_all_urls" is for App Links only): add it to the statement's "relation" array.`,
          });
      }
    }
  }

  const outside: string[] = [];
  for (const given of options.origins ?? []) {
    let origin: URL;
    try {
      origin = new URL(given);
    } catch {
      problems.push({
        code: "INVALID_INPUT",
        subject: given,
        message: `The origin "${given}" is not a URL: pass scheme and host, such as https://app.${rpId}.`,
      });
      continue;
    }
    if (origin.origin !== given.replace(/\/$/, "")) {
      problems.push({
        code: "INVALID_INPUT",
        subject: given,
        message: `"${given}" is not an origin: pass scheme, host and port only (${origin.origin}).`,
      });
      continue;
    }
    if (originMatches(origin, rpId)) passed.push(`origin ${origin.origin} may use rp id ${rpId}`);
    else if (origin.protocol !== "https:" && origin.hostname !== "localhost")
      problems.push({
        code: "ORIGIN_NOT_ALLOWED",
        subject: given,
        message: `The origin ${origin.origin} is not https: browsers allow passkeys only on https origins (and http://localhost); serve the site over https.`,
      });
    else outside.push(origin.origin);
  }
  if (outside.length > 0) {
    // Not the rp id or a subdomain: allowed only when listed at /.well-known/webauthn (WebAuthn
    // Level 3 related origins; Chrome and Safari support it).
    const file = await get(
      WEBAUTHN,
      "the related origins file",
      "the browser's related-origins check",
    );
    const listed =
      file.ok && Array.isArray((file.json as { origins?: unknown } | null)?.origins)
        ? ((file.json as { origins: unknown[] }).origins.filter(
            (o) => typeof o === "string",
          ) as string[])
        : [];
    for (const origin of outside) {
      if (listed.includes(origin))
        passed.push(`origin ${origin} is a related origin of ${rpId} (${WEBAUTHN})`);
      else
        problems.push({
          code: "ORIGIN_NOT_ALLOWED",
          subject: origin,
          message: `The origin ${origin} is neither ${rpId} nor a subdomain of it, and ${
            file.ok
              ? `${file.url} does not list it`
              : `${base}${WEBAUTHN} could not be read (${file.problem.code})`
          }: serve the site under ${rpId}, or list it in {"origins":["${origin}"]} at https://${rpId}${WEBAUTHN}.`,
        });
    }
  }
  return { ok: problems.length === 0, problems, passed };
}
