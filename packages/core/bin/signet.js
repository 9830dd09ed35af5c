#!/usr/bin/env node
// The `signet` command (`npx @signet/core check-passkeys …`). A committed file, so a workspace
// install links the command before the first build; the code is the built checker's CLI.
await import("../dist/passkey-check/bin.js");
