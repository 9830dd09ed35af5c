/**
 * `@signet/core/check-passkeys`: checks a relying party's passkey setup for iOS and Android apps
 * and web origins (the association files the platforms fetch), before launch or in CI. Also a
 * command: `npx @signet/core check-passkeys --rp-id example.com --ios TEAMID.bundle.id …`.
 *
 * @module @signet/core/check-passkeys
 */
export {
  checkPasskeySetup,
  MAX_FILE_BYTES,
  normalizeFingerprint,
  type PasskeyCheckAndroidApp,
  type PasskeyCheckIosApp,
  type PasskeyCheckOptions,
  type PasskeyCheckProblem,
  type PasskeyCheckProblemCode,
  type PasskeyCheckResult,
} from "./check.js";
export { type CliIo, main as runCheckPasskeysCli } from "./cli.js";
