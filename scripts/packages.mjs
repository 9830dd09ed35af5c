// The packages this repository publishes and their entry points, read from their manifests: what
// the release script packs and the API reports describe. A package is published unless its
// package.json says `"private": true`.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Every publishable package under `<tree>/packages`, in directory order.
 * @returns {{ dir: string, path: string, name: string, version: string, manifest: any }[]}
 */
export function publishedPackages(tree = root) {
  const packagesDir = join(tree, "packages");
  return readdirSync(packagesDir)
    .sort()
    .map((dir) => ({ dir, path: join(packagesDir, dir) }))
    .filter(({ path }) => existsSync(join(path, "package.json")))
    .map(({ dir, path }) => {
      const manifest = JSON.parse(readFileSync(join(path, "package.json"), "utf8"));
      return { dir, path, name: manifest.name, version: manifest.version, manifest };
    })
    .filter(({ manifest }) => !manifest.private);
}

/**
 * One entry per type declaration a consumer can resolve: each subpath of `exports`, and each
 * export condition of it that has its own `types` (core's root has `react-native` and `node`
 * beside the default). `report` names the API report: `index` for the package root, the subpath
 * otherwise (`redis`, `expo-secure-store`), with the condition after a dot (`index.node`).
 * @returns {{ report: string, specifier: string, condition: string, types: string }[]}
 */
export function entryPoints(manifest) {
  const entries = [];
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    if (subpath === "./package.json") continue;
    const base = subpath === "." ? "index" : subpath.slice(2).replaceAll("/", "-");
    const specifier = subpath === "." ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;
    const visit = (value, condition) => {
      if (typeof value !== "object" || value === null) return;
      if (typeof value.types === "string")
        entries.push({
          report: condition === "default" ? base : `${base}.${condition}`,
          specifier,
          condition,
          types: value.types,
        });
      for (const [key, nested] of Object.entries(value))
        if (key !== "types" && key !== "default" && typeof nested === "object") visit(nested, key);
    };
    visit(target, "default");
  }
  return entries;
}
