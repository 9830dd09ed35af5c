#!/usr/bin/env node
// The `signet-emulator` command. A committed file, so a workspace install links the command before
// the first build (pnpm warns about a missing bin target otherwise); the code is the built CLI.
await import("../dist/cli.js");
