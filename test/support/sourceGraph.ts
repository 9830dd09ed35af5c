// The workspace's own source files read with the TypeScript compiler: their module graph (every
// edge a bundler or the type checker follows: static imports, type-only imports, `export ... from`,
// `import()` calls and `import("...")` types, `require()`) and the spans of their functions. Used by
// the structure tests (test/structure.test.ts); no build needed, it reads the sources.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** Folders never read: installed packages, build output, generated app scaffolds. */
const SKIP_DIRS = new Set(["node_modules", "dist", "build", "coverage", ".expo", ".next"]);
const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

/** Every source file under the given workspace folders (paths relative to the root). */
export function sourceFiles(folders: string[], root = ROOT): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith(".") || SKIP_DIRS.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts"))
        found.push(relative(root, path));
    }
  };
  for (const folder of folders) if (existsSync(join(root, folder))) walk(join(root, folder));
  return found.sort();
}

const parsed = new Map<string, ts.SourceFile>();

/** A file (relative to `root`) parsed by the TypeScript compiler, JSX by its extension; read once. */
export function parse(file: string, root = ROOT): ts.SourceFile {
  const path = join(root, file);
  const known = parsed.get(path);
  if (known) return known;
  const text = readFileSync(path, "utf8");
  const kind = /x$/.test(file)
    ? ts.ScriptKind.TSX
    : /\.[mc]?js$/.test(file)
      ? ts.ScriptKind.JS
      : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  parsed.set(path, source);
  return source;
}

/** One import edge as written: the specifier and how it is imported. */
export type Specifier = { text: string; kind: "static" | "type" | "dynamic" | "require" };

/** Every module specifier a file names, type-only ones and `import()` included. */
export function specifiers(source: ts.SourceFile): Specifier[] {
  const found: Specifier[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const typeOnly = ts.isImportDeclaration(node)
        ? node.importClause?.isTypeOnly === true
        : node.isTypeOnly;
      found.push({ text: node.moduleSpecifier.text, kind: typeOnly ? "type" : "static" });
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      found.push({ text: node.moduleReference.expression.text, kind: "static" });
    } else if (ts.isCallExpression(node) && node.arguments.length > 0) {
      const [first] = node.arguments;
      if (first && ts.isStringLiteralLike(first)) {
        if (node.expression.kind === ts.SyntaxKind.ImportKeyword)
          found.push({ text: first.text, kind: "dynamic" });
        else if (ts.isIdentifier(node.expression) && node.expression.text === "require")
          found.push({ text: first.text, kind: "require" });
      }
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push({ text: node.argument.literal.text, kind: "type" });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

type Conditions = string | { [condition: string]: Conditions };

/** Every file a package.json `exports`/`imports` target may pick, mapped from dist/ to src/. */
function targets(root: string, packageDir: string, value: Conditions | undefined): string[] {
  if (value === undefined) return [];
  if (typeof value !== "string")
    return Object.values(value).flatMap((v) => targets(root, packageDir, v));
  if (!value.startsWith("./dist/") || value.endsWith(".d.ts")) return [];
  const stem = join(packageDir, "src", value.slice("./dist/".length).replace(/\.js$/, ""));
  return [".ts", ".tsx"].map((ext) => stem + ext).filter((path) => existsSync(join(root, path)));
}

/**
 * The workspace packages' own specifiers (`@signet/core`, `@signet/core/jest`, core's `#codec`)
 * mapped to their source files: every condition's file, so a cycle through any platform's entry
 * counts.
 */
function workspaceEntries(root: string): {
  packages: Map<string, string[]>;
  internal: Map<string, Map<string, string[]>>;
} {
  const packages = new Map<string, string[]>();
  const internal = new Map<string, Map<string, string[]>>();
  const packagesDir = join(root, "packages");
  for (const dir of existsSync(packagesDir) ? readdirSync(packagesDir) : []) {
    const manifestPath = join(packagesDir, dir, "package.json");
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as {
      name: string;
      exports?: Record<string, Conditions>;
      imports?: Record<string, Conditions>;
    };
    const packageDir = join("packages", dir);
    for (const [key, value] of Object.entries(manifest.exports ?? {})) {
      packages.set(
        key === "." ? manifest.name : `${manifest.name}${key.slice(1)}`,
        targets(root, packageDir, value),
      );
    }
    const own = new Map<string, string[]>();
    for (const [key, value] of Object.entries(manifest.imports ?? {}))
      own.set(key, targets(root, packageDir, value));
    internal.set(`${packageDir}/`, own);
  }
  return { packages, internal };
}

const RELATIVE_OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  allowJs: true,
  jsx: ts.JsxEmit.ReactJSX,
};

/** The module graph: each file's resolved imports within the workspace, with their kinds. */
export function moduleGraph(
  files: string[],
  root = ROOT,
): Map<string, { to: string; kind: Specifier["kind"] }[]> {
  const { packages, internal } = workspaceEntries(root);
  // One cache for the whole walk: sibling files resolve the same folders again and again.
  const cache = ts.createModuleResolutionCache(root, (name) => name, RELATIVE_OPTIONS);
  const graph = new Map<string, { to: string; kind: Specifier["kind"] }[]>();
  for (const file of files) {
    const edges: { to: string; kind: Specifier["kind"] }[] = [];
    for (const specifier of specifiers(parse(file, root))) {
      let resolved: string[] = [];
      if (specifier.text.startsWith(".")) {
        const hit = ts.resolveModuleName(
          specifier.text,
          join(root, file),
          RELATIVE_OPTIONS,
          ts.sys,
          cache,
        ).resolvedModule?.resolvedFileName;
        if (hit) resolved = [relative(root, hit)];
      } else if (specifier.text.startsWith("#")) {
        for (const [dir, map] of internal)
          if (file.startsWith(dir)) resolved = map.get(specifier.text) ?? [];
      } else {
        resolved = packages.get(specifier.text) ?? [];
      }
      for (const to of resolved)
        if (!to.includes("node_modules")) edges.push({ to, kind: specifier.kind });
    }
    graph.set(file, edges);
  }
  return graph;
}

/**
 * The graph's cycles, one per strongly connected component of more than one file (or a file that
 * imports itself), each named as a path `a → b → … → a` through that component.
 */
export function cycles(graph: Map<string, { to: string; kind: string }[]>): string[][] {
  // Tarjan's strongly connected components, iterative so deep graphs cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;
  const successors = (node: string) => (graph.get(node) ?? []).map((edge) => edge.to);
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: [string, number][] = [[start, 0]];
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const [node, i] = frame;
      if (i === 0) {
        index.set(node, next);
        low.set(node, next);
        next++;
        stack.push(node);
        onStack.add(node);
      }
      const outs = successors(node);
      if (i < outs.length) {
        frame[1] = i + 1;
        const to = outs[i]!;
        if (!index.has(to)) work.push([to, 0]);
        else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent[0], Math.min(low.get(parent[0])!, low.get(node)!));
      if (low.get(node) === index.get(node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        if (component.length > 1 || successors(node).includes(node)) components.push(component);
      }
    }
  }
  // Name each component by one concrete cycle: the shortest way back to its first file.
  return components.map((component) => {
    const members = new Set(component);
    const first = [...component].sort()[0]!;
    const previous = new Map<string, string>();
    const queue = [first];
    const seen = new Set<string>();
    while (queue.length > 0) {
      const node = queue.shift()!;
      for (const to of successors(node)) {
        if (!members.has(to)) continue;
        if (to === first) {
          const path = [node];
          while (path[0] !== first) path.unshift(previous.get(path[0]!)!);
          return [...path, first];
        }
        if (seen.has(to)) continue;
        seen.add(to);
        previous.set(to, node);
        queue.push(to);
      }
    }
    return [first, first];
  });
}

/**
 * A function's extent: where it is, how many lines it spans, and, for a function passed to a
 * call, the callee as written (`describe`, `describe.each([...])`, `useMemo`).
 */
export type FunctionSpan = {
  file: string;
  name: string;
  line: number;
  lines: number;
  callee?: string;
};

/** Every function, arrow function, method, accessor and constructor of a file, with its span. */
export function functionSpans(file: string, root = ROOT): FunctionSpan[] {
  const source = parse(file, root);
  const spans: FunctionSpan[] = [];
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const nameOf = (node: ts.Node): string => {
    const named = node as { name?: ts.Node };
    if (named.name && (ts.isIdentifier(named.name) || ts.isStringLiteral(named.name)))
      return named.name.text;
    if (ts.isConstructorDeclaration(node)) return "constructor";
    const parent = node.parent;
    if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name))
      return parent.name.text;
    if (parent && ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name))
      return parent.name.text;
    return "(anonymous)";
  };
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const start = lineOf(node.getStart(source));
      const span: FunctionSpan = {
        file,
        name: nameOf(node),
        line: start,
        lines: lineOf(node.getEnd()) - start + 1,
      };
      const parent = node.parent;
      if (parent && ts.isCallExpression(parent) && parent.arguments.some((a) => a === node)) {
        span.callee = parent.expression.getText(source);
      }
      spans.push(span);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return spans;
}
