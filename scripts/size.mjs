#!/usr/bin/env node
// Size budgets: each entry is bundled for the browser with esbuild (browser conditions, ESM,
// minified, code splitting) and gzipped at level 9. Two budgets per entry: what a page loads up
// front (the entry and every chunk it imports statically) and everything it can load (lazy
// chunks reached through import() included).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Budgets in bytes of min+gzip (1 KiB = 1,024 bytes). */
const budgets = [
  {
    name: "@signet/core (browser entry)",
    entry: "packages/core/dist/index.js",
    // Up front: 24.5 KiB (24.13 measured), the design's 20 plus deliberate trades: checking every
    // payload before it is signed (docs/protocol.md §11; about 2.5 KiB, the reading itself a
    // prefetched chunk), SCA as the service runs it (about 1 KiB), then the signed-request engine's
    // restarts and ambiguous re-sends, one retry policy with retry events, sessions judged gone by
    // the service's list and cleared by a 401, passkey errors with their ceremony's context and
    // option checks at creation (about 3 KiB), and the recovery code's security review (#22,
    // 0.5 KiB). That had reached 27.5 KiB (27.49 measured, 45 KiB in all at 44.85). A size pass
    // took back 3.36 KiB: the rarer account and wallet actions (delegated keys, credentials, contact
    // details, wallet privacy and export, the transactions list) are one chunk, loaded in the
    // background from createClient on (actions/lazy.ts, -1.68 KiB); the OTP seal's bundle checks are a chunk createClient
    // prefetches with HPKE (-1.36 KiB); and code only chunks use no longer rides with the page:
    // abortedError in transport/abort.ts rather than transport/http.ts, the base point G, concatBytes
    // and equalBytes, verify-stamp's import of stamp.ts (-0.33 KiB). Everything: 45.5 KiB (45.29
    // measured), 0.44 KiB more than before that pass, the new chunks' import and export lists.
    // Measured and kept up front: waitForTransaction and revokeSession (lazy, they split the poller,
    // the retry policy and the sessions' helpers into shared chunks: more in all than they save).
    // `node scripts/size.mjs --why` shows what each chunk holds; BENCHMARKS.md compares the figures
    // with other wallet SDKs.
    // Everything raised to 46 KiB (45.64 measured; up front 24.26) when createClient began loading
    // the actions' chunks too, as the design asks of rare paths (no request waits for its code):
    // about 90 B of code; the rest is esbuild re-splitting the modules those chunks share with
    // the page and the order the chunks are gzipped together in.
    // A lazy part the runtime cannot load (Jest without import()) told apart from the network's
    // failure (RUNTIME_UNSUPPORTED, #39): about 0.2 KiB up front, within the budget (24.43).
    // Everything raised to 47.25 KiB (47.16 measured; up front 24.48) for issue #31: each SCA
    // proof bound to the quote the user confirmed (the client's record of challenges, quotes and
    // passkeys, the checks before a prompt, answers compared with the quote asked for) and the SCA
    // login at execute, about 1.4 KiB; authorizeQuote moved into the SCA chunk with the login
    // (they share the proof and its checks) so that the page pays 0.2 KiB of it.
    // Then about 0.9 KiB more for issue #31's checks grounded in the service's own documents: values compared the way the service
    // may write them, the device's ids and keys bound wherever a payload names them, each kind of
    // identifier pinned on its own, a delegated key's signer identity, a revoke's kind from the
    // call, a new email or SMS credential's contact, and the passkey sign-in's proof of its key:
    // about 0.9 KiB, two thirds of it in the prefetched payloadRead chunk. The comparisons were
    // moved into that chunk (up front they are descriptions) to keep the page's budget.
    // Measured again when #31's two halves and #36 met on main: 24.87 KiB up front and 48.32 in
    // all (the merged checks and the SCA binding share less than each half assumed alone). Raised
    // to what is measured; taking the page back toward the design's 20 KiB is issue #33's work
    // (one engine, the catalog as the source), not something to trim here by hiding code.
    // Raised to 26 KiB up front (25.92 measured) and 49 KiB in all (48.85) for issue #34, the
    // first stamp after a page load: the IndexedDB key store (idb-keyval, the store and its
    // start-up read) loads with the page instead of as a chunk, so a stored key is read as soon
    // as IndexedDB answers (about 1 KiB up front, 0.5 KiB in all; a dynamic import of that chunk,
    // cached, took 7–14 ms in Chromium, 29–84 ms in Firefox ESR, 1–27 ms in WebKitGTK); proving a restored key's public
    // key on its first signature rather than by a probe at restore is about 60 B.
    // Raised for issue #32 (26.16 KiB up front and 49.77 in all measured, against main's 24.87 and
    // 48.32 measured the same way): recovery that recovers from itself, +1.29 KiB up front and
    // +1.44 in all. The engine asks the question that settles a lost answer again under the retry
    // policy and restarts as the policy allows (signedRequest*, nextStep), the OUTCOME_UNKNOWN
    // error, sign-in and refresh note the key a lost answer may have made a session for and prove
    // it two levels deep (possibleSessions 870 B and the proof in refreshSession, minified), and
    // sign-out proves and revokes those sessions (settleSessions, 604 B minified). The sign-out
    // part stays on the page: a sign-out must end sessions and delete keys even when a chunk
    // cannot load.
    // Both measured together on main after #32 and #34 met: 27.22 KiB up front and 50.32 in all
    // (each branch's own figure plus the other's, within 0.1 KiB). The page is now 7 KiB over the
    // design's 20 and the whole 18 over its 32: issue #33 (one engine, the catalog as the source)
    // is where that comes back, measured against these figures.
    // Raised to 27.5 KiB up front (27.47 measured) and 51 in all (50.81) for issue #33's first
    // item, the catalog as the source: each request is sent from its action's route (method, path
    // template, status, legs), filled by `at` (actions/actionRow.ts), rather than from literals at
    // each call, so the routes are data the generator and the tests read: about 0.25 KiB up front
    // (the `{Kind}` names of the paths, the route objects, `at`) and 0.5 in all. The rows
    // themselves are in no chunk (a lazy chunk's module re-exports the functions only).
    // Issue #33's size pass (item 5), against 26.83 KiB up front and 50.17 in all measured on its
    // base: what a page's first render runs (createClient, the key store's restore, getSession,
    // listSessions, listInternalAccounts, sign-out) stays up front; the signed-request engine
    // (transport/signedRequest*.ts, nextStep, challenge, checkedSigner: -3.8 KiB) and the actions
    // that make a session (the sign-ins and refreshSession: -2.0 KiB) are chunks that createClient
    // starts loading, as the rarer actions already were (docs/size.md says what each chunk holds).
    // addPasskey joined the account and wallet actions' chunk (21.01 KiB up front, 51.14 in all).
    // Then a payment's actions (getQuote, executeQuote, waitForTransaction) became one chunk with
    // the SCA login and authorization that confirm it (authorizeQuote, resendQuoteAuthorization,
    // scaLogin, before their own chunk: they share the quote's ledger and proof, and executeQuote
    // runs scaLogin), once the public synchronous helpers that kept their modules on the page moved
    // beside what they check (readPasskeyOptions to transport/responseShape.ts,
    // DEFAULT_POLLING_INTERVAL_MS to transport/pollUntil.ts). Measured: 19.37 KiB up front, the
    // design's 20 met; 51.18 in all (+1 KiB against the base: two more chunks' import and export
    // lists, and code the chunks share, which esbuild splits into shared chunks). The design's 32
    // in all is not met: HPKE's 8.5 KiB chunk is kept (the design's choice), and the other 42.7 KiB
    // are Signet's own code, every action and check, and the chunks' import and export lists.
    // Raised to 52 KiB in all (51.86 measured: 53103 B; up front unchanged, 27.10) for issue #37
    // item 3, contact changes as a resource behind `contactChanges`: changeContact (the create,
    // the GET that resumes a lost answer, the stamp-only submit, the in-flight wait) is 4.6 KB
    // minified in the lazy `walletActions` chunk (5.3 KiB gzipped, was 3.6 in docs/size.md);
    // nothing of it loads up front. Written as a class, its method names survive minifying: the
    // first place to take some back.
    // Merged with issue #37's nine actions (TOTP enrolment, the factor reset's three, trust and
    // untrust in the payments chunk, changeContact in the wallet chunk): 19.66 KiB up front (the
    // page gains only their stubs), 54.44 KiB in all (55748 B).
    // Then, in the wallet chunk: cancelContactChange (#853's DELETE, read back after a lost
    // answer) +124 B (55872 B), and changeContact rewritten from a class to plain functions (its
    // method names now minify), with the service left the judge of a deadline the device's clock
    // says has passed, -38 B: 54.53 KiB in all (55834 B measured), lowered to that.
    // Raised to 55.25 KiB in all (54.76 measured: 56078 B; up front 19.65, 20120 B, unchanged)
    // for issue #37 item 2, webhooks pushed to the waiting device: the relay's long-poll listener
    // is its own lazy chunk (`push`, 0.6 KiB), loaded only by a client created with `push: true`;
    // the engine's race of its wait with the push, in the prefetched `signedRequest` chunk, and
    // the client's option and import stub are the rest (about 0.1 KiB).
    // The two merged: 19.66 KiB up front (20134 B), 54.84 KiB in all (56160 B measured), set to
    // that.
    // Raised to 20.5 KiB up front (20.45 measured: 20937 B) and 57 in all (56.86: 58225 B) for
    // issue #37 item 1, PROCESSING carried to the end: the page holds only the view of the calls
    // still processing (`client.pending`'s snapshot), the two options and the wiring that loads
    // the rest, about 0.7 KiB; what tracks a call and keeps it for a reload (pending/track.ts) is
    // a chunk prefetched with the engine, its IndexedDB store (pending/idbPendingStore.ts) and the
    // resume (pending/resume.ts) chunks loaded when a call is kept or found kept.
    // Merged with #37 item 2 (webhooks): 21008 B up front, 59018 B in all, set to those while the
    // up-front page is cut back under 20 KiB.
    // Raised to 20.25 KiB up front (20656 B measured, +524 B on main's 20132) and 56 KiB in all
    // (57222 B, +1474) for issue #38 item 2, step-up before sensitive actions. The check itself,
    // the preset's resolution and `getStepUpStatus` are chunk code (catalog/stepUpCheck.ts, each
    // guarded action wrapped in its chunk's module); what the page keeps is `Session.verifiedAt`
    // in the session store's key ids, the refusal of a misspelt `stepUp.actions` name at creation
    // (the generated map of the 22 names it can take, about 130 B), the pure rule
    // `stepUpRequired` exported for a signer outside the page (about 60 B), and the stubs of
    // `stepUp` and `getStepUpStatus`. Dropping the name check at creation would bring the page
    // back under 20 KiB only with the rule's export gone too.
    // Both merged (#37 item 1 and #38 item 2): 21.09 KiB up front (21596 B) and 59.16 KiB in all
    // (60576 B), set to those. The design's 20 KiB up front, met at #33, is missed again by about
    // 1.1 KiB: the pending view and its wiring in client.ts, Session.verifiedAt and the step-up
    // name check, and the shared chunk idb-keyval now sits in; moving the pending wiring and the
    // step-up map behind the chunks that use them is the next cut.
    // Lowered to 21167 B up front (-429 B) by moving the pending calls' store, tracker and resume
    // wiring (pending/clientPending.ts) and the engine's binding to the client's seams
    // (transport/clientSigned.ts, with the push loader and idempotency keys) into the chunks
    // createClient already prefetches; everything +116 B (60692 B), the two modules' import and
    // export lists. Still 687 B over the design's 20 KiB.
    // -1 B (21166 B), the chunks' hashed names in the entry's imports.
    // Lowered to 20833 B up front (-333 B) for issue #34 part 2: the WebCrypto backend's half a
    // stamping page does not use is the HPKE chunk's (crypto/hpke-webcrypto.ts): decryption keys
    // (generate, import, open), the HPKE seal's checks and error mapping, and `verify`, which only
    // chunks call (the OTP seal's bundle checks, stamp verification), with what both halves share
    // in crypto/subtle.ts (-258 B); and the probe of an empty IndexedDB key store is a chunk of its
    // own (keys/probe.ts) that only a first visit loads (-75 B, with a client making its key
    // store's choice again after one that failed). Measured and not kept: importSigningKey in the
    // HPKE chunk too (+52 B: the signing key's wrapper then sits in a shared chunk), a record that
    // keeps its uncompressed public key (+172 B). Still 353 B over the design's 20 KiB: what is
    // left up front is what a first render runs (the key store's read, the restore, the session
    // store, sign-out, the transport) plus the generated stubs of the lazy actions
    // (catalog/chunks/lazy.ts, 2.9 KB minified) and the step-up name map checked at creation.
    // +119 B up front (20952 B on its own) for issue #34 part 2's second step: a generated key's
    // record keeps its public key as a CryptoKey (`verifyKey`), and a restore binds it to the
    // record's hex (one raw export: x and the parity of y compared) instead of importing the hex
    // and, in WebKit, decompressing it with a BigInt square root first; the record checks of a
    // verifyKey (a P-256 public verify key, exportable) and the uncompressed form taken from the
    // export. Measured and kept: the export's uncompressed form (10 B, no square root for
    // `publicKeyUncompressed` later) and the exportable check (7 B, refused at restore rather
    // than at the first signature).
    // (21175 B measured with everything above.) +186 B (21361 B) for #37 item 1's kept sign-in:
    // the kept record's fourth route and its `adoptSession` finish checked on every write and
    // read (pending/pendingStore.ts, up front with the memory store), the client's seams for a
    // resume's adoption (client.ts: 45 B of them for a helper of their own, which keeps
    // createClient under 250 lines), and the session store's stored mark that step-up's
    // once-a-minute write reads. Then 21406 B measured. +20 B on its own for the client's
    // `signer` ("page" or "frame", read from its crypto), which types what exportWallet resolves
    // to (#38): 21424 B measured with both. +157 B (21581 B) for #37's kept passkey sign-in: the
    // entry's loader of its resume (pending/keptPasskey.ts), the client's `track` for an unsigned
    // call and the kept record's unsigned route (pending/pendingStore.ts). +1 B (21582 B) merged
    // with #38's frame passkeys (FRAME_REFUSED's documented reasons; exportWallet's row without
    // its hook summary).
    // +28 B (21610 B): an unsigned request kept within a caller's deadline (client.ts), so a code
    // request's one time budget bounds its sends' retries too (the fault soak's PROCESSING_TIMEOUTs).
    // +6 B with the legacy sign-ins' key opened where a frame keeps it
    // (CryptoApi.openSessionSigningKey, session/establishSession.ts): 21616 B merged.
    // The service clock's follower a function of its own, so createClient stays under the
    // structure test's 250 lines (+27 B): 21643 B.
    // Lowered to 20332 B (-1311 B), the design's 20 KiB met again, by code only chunks run leaving
    // the modules the page loads (esbuild keeps a module whole in the chunk of everything that
    // imports it, so one export the page uses kept the rest on it; `--why` and a build with the
    // dynamic imports cut off showed which): the session list reads parseAuthSession from
    // session/authSession.ts, not through establishSession.ts (-271 B); DEFAULT_POLLING_INTERVAL_MS
    // is transport/pollingInterval.ts, without the poll loop (-349 B); a quote's execute check is
    // payloads/executeQuotePayload.ts, apart from the exported readers (-285 B); the strict
    // base64url decoder is crypto/base64url-decode.ts (-90 B); the field checks only lazy actions
    // make are arguments/fieldArguments.ts (-165 B); and a payload's parsing is
    // transport/payloadParse.ts, with payloadCheck.ts passing on types only (-150 B). No check and
    // no feature moved behind a new import(): what a first render and the first stamp run (the key
    // store's read and restore, stampPayload, the reads, sign-out) is as it was, and the code that
    // left the page is in the action chunks or in shared chunks that a chunk createClient already
    // prefetches imports (payloadRead, clientSigned, the actions' chunks).
    upFront: 20_332,
    // +28 B in all (60720 B): withStepUp runs an action step-up does not name in the caller's call.
    // -3 B (60717 B): the step-up check and getStepUpStatus share one reading of the verification.
    // +95 B (60812 B) with the two cuts above: the probe's chunk and the HPKE chunk's new import
    // and export lists (crypto/subtle.ts is imported by both halves).
    // +343 B (61155 B) for issue #38 item 2's gaps: the page's bytes above, and in the wallet
    // chunk the age judged on both clocks, the mark written to the key store (and kept on each
    // change of the held sessions), and the synchronous check once the sessions are loaded.
    // +584 B (61739 B), all in lazy chunks, for #37 item 1's gaps: direct calls (quote execute, a
    // contact-change submit) told pending by the engine; the kept record's route allowlist and
    // account check (pending/pendingStore.ts, read on write and on read), the resume for some
    // accounts (its `accountIds` checked: 72 B) and the deletion of lapsed records without a
    // resume (pending/resume.ts, pending/clientPending.ts).
    // +142 B (61881 B; +105 B on its own) with #38's seam: the describing in the engine's chunk,
    // exportWallet's `showExportBundle` branch, and the key store's handle records.
    // +109 B (60921 B on its own) for the same verifyKey binding.
    // (62007 B measured with everything above.) +2 B (62009 B): exportWallet's row says what it
    // resolves to with a frame (the row's text ships in its chunk). +1165 B (63174 B) for #37
    // item 1's kept sign-in: the up-front bytes above, and in lazy chunks verifyOtp's keeping
    // (its key noted before the copy is written), the resume's adoption of the answered session
    // under that key with its refusals (pending/adoptKeptSession.ts) and the key's deletion.
    // Then 63210 B measured (the note written once and awaited before it is forgotten). +12 B on
    // its own for the client's `signer` and exportWallet's reworded row: 63223 B with both.
    // +1787 B (65010 B) for #37's kept sign-ins finished right: the up-front bytes above; in lazy
    // chunks the refusal rule (errors/refusedByService.ts), a resume's keeping of a re-send with
    // no answer, the unsigned kept verify (pending/unsignedKept.ts) and the passkey resume's
    // chunk (its proof and hold, pending/keptPasskey.ts). +3 B (65013 B) merged with #38's frame
    // passkeys: exportWallet's row loses its hook summary (useExportWallet is hand-written now,
    // its data typed by the client's kind), which gzips a few bytes worse.
    // +66 B (65079 B): the unsigned call's one budget (client.ts above, pollUntil.ts's deadline).
    // +25 B with the legacy session's key opened by a frame's `openSessionSigningKey` where it
    // has one: 65104 B merged.
    // +68 B (65172 B) with the page's cut to 20332 B above: the code that left the page sits in
    // shared lazy chunks now, whose import and export lists are the difference (the reads of
    // waitForTransaction and changeContact cut at their wait's end, +17 B, were taken back).
    // +201 B (65373 B), none up front: the waits' later reads cut at their end (transport/pollReads.ts, lazy).
    whole: 65_373,
  },
  {
    // The hooks alone: react and @signet/core are the app's own dependencies.
    name: "@signet/react",
    entry: "packages/react/dist/index.js",
    // 4.5 KiB, half a KiB over the design's 4: a hook each for the SCA login and factors, the
    // transactions list, wallet privacy and contact verification, and the TanStack-shaped results
    // (skipToken, select, per-call SCA state) with their one table of invalidations.
    // Then 4.55 KiB (4.53 measured) when useExecuteQuote took the SCA prompt state too, for a
    // service that asks for the SCA login at execute, and every prompt the confirmed quote.
    // Then 4.75 KiB (4.72 measured) with refetchOnWindowFocus (#36): the focus and visibility
    // listeners and the per-query option that turns them off.
    // Issue #33: the query hooks, their keys and options are generated from the rows
    // (hooks.ts, queryOptions.ts), the same code as before: 4.72 KiB measured. The design's 4 is
    // not met: no module is lazy (each hook is a few lines over the query and mutation state
    // machines, query.ts 2.1 KB and mutation.ts 1.2 KB minified), and the public export list
    // alone (60 names) is about half a KiB gzipped on its own.
    // Then 5 KiB (4.86 measured) with issue #37's five generated mutation hooks (TOTP enrolment,
    // the factor reset's start and completion, trust and untrust).
    // Merged with #37's six generated mutation hooks: 4.90 KiB (5017 B).
    // Then 5.1 KiB (5.07 measured: 5196 B) for #37 item 1: every mutation hook's
    // `isProcessing`, `pendingSince` and `processingAttempt`, and `usePendingCalls`.
    // Then 5.25 KiB (5287 B measured) with issue #38's `useStepUp`: the step-up status read
    // again on every session change and when it lapses, and `verify()` over `stepUp`.
    // Both merged: 5.36 KiB (5488 B), set to that.
    // 5496 B: useExportWallet written by hand (its data follows the client's kind).
    upFront: 5_496,
    whole: 5_496,
    external: ["react", "react-dom", "@signet/core"],
  },
  {
    // The app's side of the signer frame (issue #38): the channel and the crypto and key store
    // seams it answers; @signet/core is the app's own dependency.
    name: "@signet/frame (the app's adapter)",
    entry: "packages/frame/dist/index.js",
    // 1.9 KiB measured (1974 B): nothing of it is lazy, an app that uses it needs all of it.
    // 1990 B with the iframe's `referrerpolicy="origin"` (Firefox's frame checks its parent by
    // the referrer, which an app sending no-referrer would otherwise withhold). 2048 B with
    // `onConfirm` (the frame's `confirming` notice read and handed to the app). 2159 B with
    // `webauthn` (a passkey's registration asked of the frame, the `register` request). 2254 B
    // with the legacy sign-ins (`openSessionSigningKey`, the `openSession` request).
    upFront: 2_254,
    whole: 2_254,
    external: ["@signet/core"],
  },
  {
    // The frame page itself, served from the signer's origin: core's key store, crypto and the
    // checks of the routes it signs, its channel and its confirmation. Bundled from its source
    // as vite builds it (packages/frame/dist/page).
    name: "@signet/frame (the frame page)",
    entry: "packages/frame/src/page/main.ts",
    // Measured: 22.8 KiB up front (23383 B), 60.6 KiB with every lazy chunk (62063 B). The page
    // reuses core's browser entry (key store, WebCrypto keys, stamps, export bundles) and the
    // action files of the routes it signs; its lazy chunks are core's own. Merged with #37 and
    // #38's step-up gaps: 23330 B up front (core's HPKE cut), 63225 B in all (core's chunks grew).
    // With the stored verifyKey's binding (#34): 23462 B up front, 63366 B in all.
    // With the confirmation window of the signer's origin for engines without
    // IntersectionObserver v2 (confirmWindow.ts, #38 item 3): 24021 B up front, 63990 B in all.
    // With #37 item 1's kept sign-in as well (core's kept-record checks up front, the adoption in
    // the resume's chunk; alone +380 B up front, +1224 B in all): 24441 B up front, 65251 B in all.
    // On their own, with the client's `signer` (core, above) +13 B up front, +29 B in all; the
    // payment's rule, core's execute check and quote-payload reader (payloads/quotePayload.ts)
    // and the confirmation's amount and payee rows +435 B up front, +418 B in all (the route is
    // written in the frame, not imported: executeQuote.ts would add 2.7 KiB up front); the
    // credential add and removal rules (the kind a removal removes, the contact shown) +847 B up
    // front, +1717 B in all (core's credential checks load when a change is first asked for:
    // their action files bring the passkey code along). All merged: 25713 B up front,
    // 67332 B in all. +21 B up front, +20 B in all (25734 B, 67352 B): the `confirming` notice
    // the frame sends before it waits for a tap. The account's rules (rulesAccount.ts: the
    // wallet's privacy, the contact PATCH and the contact-change submit, their rows) +664 B up
    // front, +1742 B in all (core's privacy and contact checks load when first asked for).
    // Merged with #37's kept passkey sign-in (core's entry loader and the kept record's unsigned
    // route up front; its resume chunk and the unsigned kept verify in lazy chunks; alone +134 B
    // up front, +1480 B in all): 26470 B up front, 70511 B in all. Passkeys and delegated keys
    // (alone +2156 B up front, +3029 B in all: the registration options read, the ceremony, the
    // add's and the delegated key's rules with their state and rows; core's checks of both load
    // when first asked for), with the confirmation fixes (the OAuth token's claims, the removed
    // ids, the opaque payment's row) and the confirmation window's rows by postMessage, all
    // merged: 28509 B up front, 73156 B in all.
    // +52 B up front, +54 B in all (28561 B, 73210 B): core's unsigned call kept within one
    // time budget (client.ts, pollUntil.ts).
    // The legacy sign-ins' `openSession` (the key's purpose, the open and import; core's open
    // stays in its lazy `rare` chunk; alone +124 B up front, +159 B in all): 28684 B up
    // front, 73356 B in all merged. A stored session's legacy refresh to a decrypt-only key the
    // frame claims for it (+73 B up front, +84 B in all): 28757 B, 73440 B. A key opened from
    // a bundle marked so that it is never a refresh's new key, and a delegated key's second
    // signature taken when its request is read (+39 B, +49 B): 28796 B, 73489 B. The stamp's
    // steps (the body read, the claims, the refusals, the check) functions of their own so that
    // startFrame stays under the structure test's 250 lines (+75 B, +48 B): 28871 B, 73537 B.
    // With core's page cut (above: code only chunks run out of the modules the page loads; the
    // frame imports the execute check from payloads/executeQuotePayload.ts and the payload's
    // parsing from transport/payloadParse.ts): 28088 B up front (-783 B), 73591 B in all (+54 B,
    // the shared chunks' import and export lists). +242 B in all: core's waits' later reads cut
    // at their end (transport/pollReads.ts, in a lazy chunk).
    // The confirmation window waits for the frame to close it once answered, and the frame takes
    // an answer still on its way when it first sees the window closed (a WebKit race the CI met):
    // +46 B up front, +46 B in all.
    upFront: 28_134,
    whole: 73_879,
  },
];

/**
 * What each of core's lazy chunks holds and why it is lazy (docs/size.md says it once, here).
 * Every one but `rare`, `rejectSession`, `resume`, `idbPendingStore`, `probe` and `chunk` starts loading when a client is made, so no
 * call waits for it; a load that fails is a retryable NETWORK error of the call that needed it.
 */
const CHUNKS = {
  clientSigned:
    "the signed-request engine (challenge, stamp, re-sends, lost answers) bound to the client's seams: a page's first render reads, it signs nothing",
  sessionActions:
    "the actions that make a session (OTP, OAuth and passkey sign-ins, refreshSession): a page with a held session runs none until it nears expiry",
  walletActions:
    "the rarer account and wallet actions (credentials and addPasskey, delegated keys, contact details, wallet privacy, export, the transactions list)",
  paymentActions:
    "a payment's actions (getQuote, executeQuote, waitForTransaction) with the SCA login and authorization that confirm it (authorizeQuote, resendQuoteAuthorization, scaLogin, which share their proof): a first render shows balances, a payment starts from a tap",
  scaFactorActions: "the SCA factors (list, enroll, delete, security events)",
  ceremonies:
    "@simplewebauthn/browser's ceremonies: only a passkey tap needs them, and they are there before it",
  "hpke-webcrypto":
    "@hpke/core, the browser's HPKE, with the WebCrypto backend's decryption keys and signature verification: only an OTP seal, a bundle's opening or a stamp's verification needs them",
  probe:
    "the probe of an empty IndexedDB key store (store, read back, sign with the copy): only a first visit runs it, a returning visit's stored key shows the same",
  bundles: "the OTP seal's bundle checks, prefetched with HPKE",
  rare: "export and legacy bundles, d·G of an imported scalar, stamp verification: fetched when a decryption key is made",
  chunk:
    "code two or more lazy chunks share and the page does not use (esbuild gives each such set of modules a chunk)",
  payloadRead:
    "the reading of a payload before it is signed (docs/protocol.md §11): prefetched, only a signature needs it",
  watchSessionExpiry: "the session watcher and automatic refresh: its first timer is minutes away",
  rejectSession: "clearing a session the service refused (a 401): rare, and loaded on that 401",
  push: "the long poll of the relay's pushed webhooks (docs/protocol.md §14): only a client created with push: true loads it, at its first wait after PROCESSING",
  clientPending:
    "what tracks a call the service answers PROCESSING, where it is kept for a reload, and the resume's wiring: prefetched with the engine, only a signature or a kept call needs it",
  resume:
    "the resume of calls a page before kept (docs/protocol.md §2.5): loaded only when one is kept",
  idbPendingStore:
    "the IndexedDB store of calls still processing: loaded when the first is kept or read back",
  keptPasskey:
    "a kept passkey sign-in's resume (its unsigned re-send, the proof and the hold): loaded by the entry only when a resume finds one",
};

const gz = (bytes) => gzipSync(bytes, { level: 9 }).length;
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

let failed = false;
// `pnpm size -- --write` also writes docs/size.md, the one place the figures are written down;
// `pnpm size -- --why` lists each chunk's modules.
const report = [];
for (const { name, entry, upFront, whole, external = [] } of budgets) {
  const result = await build({
    entryPoints: [join(root, entry)],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    splitting: true,
    outdir: join(root, ".size-out"),
    write: false,
    metafile: true,
    logLevel: "silent",
    external,
  });
  const outputs = result.metafile.outputs;
  const contents = new Map(
    result.outputFiles.map((file) => [file.path.slice(root.length + 1), file.contents]),
  );
  // Dynamic-import targets carry an entryPoint too: pick the configured entry itself.
  const entryName = Object.keys(outputs).find((path) => outputs[path].entryPoint === entry);
  // Everything loaded up front: the entry and its static imports, transitively.
  const eager = new Set();
  const visit = (path) => {
    if (eager.has(path)) return;
    eager.add(path);
    for (const imported of outputs[path].imports) {
      if (imported.kind === "import-statement" && !imported.external) visit(imported.path);
    }
  };
  visit(entryName);
  const gzOf = (paths) =>
    gz(new Uint8Array(Buffer.concat(paths.map((path) => contents.get(path)))));
  const js = Object.keys(outputs).filter((path) => path.endsWith(".js"));
  const lazy = js.filter((path) => !eager.has(path));
  const eagerSize = gzOf([...eager]);
  const wholeSize = gzOf(js);
  for (const [label, size, limit] of [
    ["loaded up front", eagerSize, upFront],
    ["everything it can load", wholeSize, whole],
  ]) {
    const ok = size <= limit;
    failed ||= !ok;
    console.log(
      `${ok ? "ok  " : "FAIL"} ${name}, ${label}: ${kib(size)} min+gzip (${size} of ${limit} bytes)`,
    );
  }
  for (const path of lazy)
    console.log(`     lazy chunk ${path.split("/").pop()}: ${kib(gz(contents.get(path)))}`);
  // `--why`: where the bytes go. Each chunk, up front first, with the chunks that import it (a
  // shared chunk exists for each set of importers) and its modules by minified bytes.
  if (process.argv.includes("--why")) {
    for (const path of [...eager, ...lazy]) {
      const by = js.filter((other) => outputs[other].imports.some((i) => i.path === path));
      console.log(
        `\n${eager.has(path) ? "up front" : "lazy"} ${path.split("/").pop()}: ${outputs[path].bytes} B min, ${gz(contents.get(path))} B gzip${by.length ? `; imported by ${by.map((other) => other.split("/").pop()).join(", ")}` : ""}`,
      );
      const inputs = Object.entries(outputs[path].inputs).sort(
        (a, b) => b[1].bytesInOutput - a[1].bytesInOutput,
      );
      for (const [input, { bytesInOutput }] of inputs)
        if (bytesInOutput > 0)
          console.log(
            `  ${String(bytesInOutput).padStart(6)} ${input.replace(/^.*node_modules\/|^packages\/[^/]+\/dist\//, "")}`,
          );
    }
  }
  report.push(
    `## ${name}`,
    "",
    "| what | min+gzip | budget | holds, and why it is lazy |",
    "|---|---|---|---|",
    `| loaded up front (the entry and its static imports) | ${kib(eagerSize)} (${eagerSize} B) | ${kib(upFront)} | |`,
    ...lazy.map((path) => {
      const chunk = path
        .split("/")
        .pop()
        .replace(/-[A-Z0-9]{8}\.js$/, "");
      return `| lazy chunk \`${chunk}\` | ${kib(gz(contents.get(path)))} | | ${CHUNKS[chunk] ?? ""} |`;
    }),
    `| everything it can load (all chunks gzipped together) | ${kib(wholeSize)} (${wholeSize} B) | ${kib(whole)} | |`,
    "",
  );
}
if (process.argv.includes("--write")) {
  // The React Native section is written by scripts/size-react-native.mjs (two `expo export`
  // runs, minutes long): kept as it is.
  const file = join(root, "docs/size.md");
  const previous = existsSync(file) ? readFileSync(file, "utf8") : "";
  const start = previous.indexOf("<!-- react-native:start -->");
  const end = previous.indexOf("<!-- react-native:end -->");
  const reactNative =
    start >= 0 && end > start
      ? previous.slice(start, end + "<!-- react-native:end -->".length)
      : "";
  writeFileSync(
    file,
    [
      "# Sizes",
      "",
      "Written by `pnpm size -- --write` (scripts/size.mjs): each entry bundled for the browser with",
      "esbuild (browser conditions, ESM, minified, code splitting) and gzipped at level 9. CI runs",
      "`pnpm size`, which fails over a budget; the READMEs point here instead of repeating figures.",
      "",
      ...report,
      ...(reactNative ? [reactNative, ""] : []),
    ].join("\n"),
  );
}
process.exit(failed ? 1 : 0);
