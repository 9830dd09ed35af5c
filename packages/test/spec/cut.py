#!/usr/bin/env python3
"""Cuts the wallet subset out of the service's bundled OpenAPI (a maintainer's tool; tests never run it).

Usage: python3 packages/test/spec/cut.py <bundled openapi.yaml> <commit> <date>
Reads the bundled `openapi.yaml` of the public lightsparkdev/grid-api repository, keeps the paths in
PATHS and every component they reference (transitively), and writes grid-openapi-wallet.yaml beside
this file. Needs PyYAML; its dump (sort_keys=False, width=120) is the file's format.
"""
import json
import pathlib
import sys

import yaml

PATHS = [
    "/customers",
    "/customers/{customerId}",
    "/customers/internal-accounts",
    "/customers/external-accounts",
    # Its delete: refused with BENEFICIARY_TRUSTED while the account is a trusted beneficiary.
    "/customers/external-accounts/{externalAccountId}",
    "/quotes",
    "/quotes/{quoteId}",
    "/quotes/{quoteId}/execute",
    "/quotes/{quoteId}/authorize",
    "/quotes/{quoteId}/authorize/resend",
    "/transactions",
    "/transactions/{transactionId}",
    "/sandbox/internal-accounts/{accountId}/fund",
    "/internal-accounts/{id}",
    "/internal-accounts/{id}/export",
    "/auth/credentials",
    "/auth/credentials/{id}",
    "/auth/credentials/{id}/verify",
    "/auth/credentials/{id}/challenge",
    "/auth/sessions",
    "/auth/sessions/{id}",
    "/auth/sessions/{id}/refresh",
    "/auth/delegated-keys",
    "/auth/delegated-keys/{id}",
    # Strong customer authentication beyond the per-quote challenge: factors, login, risk events.
    "/sca/factors",
    "/sca/factors/confirm",
    "/sca/factors/{credentialId}",
    "/sca/factors/reset",
    "/sca/factors/reset/{resetId}",
    "/sca/factors/reset/{resetId}/complete",
    "/sca/login/start",
    "/sca/login/complete",
    "/sca/record-event",
    # Trusted beneficiaries: an external account whose sends skip the per-transaction SCA.
    "/customers/external-accounts/{externalAccountId}/trust",
    "/customers/external-accounts/{externalAccountId}/trust/confirm",
    "/customers/external-accounts/{externalAccountId}/untrust",
    "/customers/external-accounts/{externalAccountId}/untrust/confirm",
    # Contact verification: a new email or phone proven by a code before it counts.
    "/customers/{customerId}/verify-email",
    "/customers/{customerId}/verify-email/confirm",
    "/customers/{customerId}/verify-phone",
    "/customers/{customerId}/verify-phone/confirm",
    # The sandbox and platform routes a client of the service's demo wallet touches.
    "/sandbox/send",
    "/platform/internal-accounts",
]


def refs(node, found):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and value.startswith("#/components/"):
                found.add(tuple(value.split("/")[2:4]))
            else:
                refs(value, found)
    elif isinstance(node, list):
        for item in node:
            refs(item, found)


def main():
    source, commit, date = sys.argv[1:4]
    full = yaml.safe_load(pathlib.Path(source).read_text())
    paths = {path: full["paths"][path] for path in PATHS}
    wanted, seen = set(), set()
    refs(paths, wanted)
    while wanted - seen:
        for kind, name in sorted(wanted - seen):
            seen.add((kind, name))
            refs(full["components"][kind][name], wanted)
    components = {}
    kinds = sorted(full["components"], key=lambda kind: kind != "schemas")
    for kind in kinds:
        items = full["components"][kind]
        kept = {name: value for name, value in items.items() if (kind, name) in seen}
        if kind == "securitySchemes":
            kept = items
        if kept:
            components[kind] = kept
    out = {
        "openapi": full["openapi"],
        "info": {
            "title": "Grid API (wallet-client subset)",
            "version": full["info"]["version"],
            "description": (
                "Subset of the bundled openapi.yaml of the public lightsparkdev/grid-api repository (Apache-2.0), "
                f"commit {commit} of {date}: the paths a wallet client, its relay and an emulator of them touch, "
                "with every component they reference. Reference material."
            ),
        },
        "servers": full["servers"],
        "security": full["security"],
        "paths": paths,
        "components": components,
    }
    target = pathlib.Path(__file__).with_name("grid-openapi-wallet.yaml")
    target.write_text(yaml.safe_dump(out, sort_keys=False, width=120, allow_unicode=True))
    print(json.dumps({"paths": len(paths), "schemas": len(components.get("schemas", {}))}))


if __name__ == "__main__":
    main()
