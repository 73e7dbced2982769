// The page's modules import one another without a cycle: app.js at the top
// wires them together, and every import points down, towards the pure
// modules; neither view's folder (js/learn/, js/personalize/) imports the
// other's, and js/shared/ imports neither. The graph is read from the
// source text (no module is run): the static imports and re-exports of
// ui/app.js and of every module under ui/js/, their dynamic import("./…")
// of a fixed path, and those of every module they reach.
import {test} from "node:test";
import assert from "node:assert/strict";
import {existsSync, readFileSync, readdirSync} from "node:fs";
import {dirname, relative, resolve, sep} from "node:path";
import {fileURLToPath} from "node:url";

const ui = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const roots = [resolve(ui, "app.js"),
  ...readdirSync(resolve(ui, "js"), {recursive: true}).filter((f) => f.endsWith(".js")).map((f) => resolve(ui, "js", f))];

// STATIC matches `import … from "x"`, `import "x"` and `export … from "x"`
// at the start of a line (a comment's line starts with // or *); DYNAMIC
// matches import("x") with a string literal.
const STATIC = /^[ \t]*(?:import|export)\s*(?:[^;'"]*?\bfrom\s*)?(["'])([^"'\n]+)\1/gm;
const DYNAMIC = /\bimport\s*\(\s*(["'])([^"'\n]+)\1\s*\)/g;

// specifiers returns the module paths a module's source text imports.
function specifiers(text) {
  return [...text.matchAll(STATIC), ...text.matchAll(DYNAMIC)].map((m) => m[2]);
}

// importGraph maps each module reached from roots (absolute paths) to the
// modules it imports by a relative path; bare names (a package) are left out.
function importGraph(roots) {
  const graph = new Map();
  const todo = [...roots];
  while (todo.length > 0) {
    const file = todo.pop();
    if (graph.has(file)) continue;
    const deps = [...new Set(specifiers(readFileSync(file, "utf8"))
      .filter((s) => s.startsWith("./") || s.startsWith("../"))
      .map((s) => resolve(dirname(file), s)))];
    graph.set(file, deps);
    for (const d of deps) {
      assert.ok(existsSync(d), `${relative(ui, file)} imports ${relative(ui, d)}, which does not exist`);
      todo.push(d);
    }
  }
  return graph;
}

// cycles returns every elementary cycle of graph (Map: node → nodes it
// points to), each as its nodes from its least one, with that one repeated
// at the end; none when the graph has no cycle. A cycle is found from its
// least node, through greater nodes only, so each is listed once, and in
// the same order on every run. It stops at limit cycles.
function cycles(graph, limit) {
  const found = [];
  const nodes = [...graph.keys()].sort();
  for (const start of nodes) {
    const path = [start];
    const walk = (n) => {
      for (const m of [...(graph.get(n) || [])].sort()) {
        if (found.length >= limit) return;
        if (m === start) found.push([...path, start]);
        else if (m > start && !path.includes(m)) {
          path.push(m);
          walk(m);
          path.pop();
        }
      }
    };
    walk(start);
  }
  return found;
}

test("specifiers reads static, re-exported and dynamic imports, not comments", () => {
  const text = [
    'import {a, b} from "./a.js";',
    "import {",
    "  c,",
    "} from './c.js';",
    'import "./side.js";',
    'export {d} from "./d.js";',
    'export * from "./e.js";',
    'import {g}from"./g.js";',
    'import {fromX} from "./h.js";',
    "// import {x} from './commented.js';",
    " * import {y} from './doc.js';",
    'const f = await import("./f.js");',
    "const importObject = go.importObject;",
  ].join("\n");
  assert.deepEqual(specifiers(text), ["./a.js", "./c.js", "./side.js", "./d.js", "./e.js", "./g.js", "./h.js", "./f.js"]);
});

test("cycles finds each cycle once, none in a graph that points one way, and stops at its limit", () => {
  const g = (o) => new Map(Object.entries(o));
  assert.deepEqual(cycles(g({a: ["b"], b: ["c"], c: ["a"]}), 10), [["a", "b", "c", "a"]]);
  assert.deepEqual(cycles(g({a: ["a"]}), 10), [["a", "a"]]);
  assert.deepEqual(cycles(g({a: ["b"], b: ["a", "c"], c: ["b"]}), 10), [["a", "b", "a"], ["b", "c", "b"]]);
  assert.deepEqual(cycles(g({a: ["b", "c"], b: ["c"], c: []}), 10), []);
  assert.equal(cycles(g({a: ["b", "c"], b: ["a", "c"], c: ["a", "b"]}), 2).length, 2);
});

// LIMIT bounds the search (a tangle of modules has many cycles); SHOWN is
// how many a failure names, the shortest first: breaking those often breaks
// many longer ones.
const LIMIT = 1000;
const SHOWN = 20;

test("the page's modules import one another without a cycle", () => {
  const graph = importGraph(roots);
  const name = (f) => relative(ui, f);
  const found = cycles(graph, LIMIT).sort((a, b) => a.length - b.length).map((c) => c.map(name).join(" → "));
  const shown = found.slice(0, SHOWN);
  if (found.length > SHOWN) shown.push(`… and ${found.length - SHOWN} more`);
  const count = found.length < LIMIT ? found.length : `${LIMIT} or more`;
  assert.ok(found.length === 0, `${count} import cycle(s), the shortest first:\n  ${shown.join("\n  ")}`);
});

// FOLDERS are the folders under js/ and those each may import from, besides
// its own: a view imports shared modules, never the other view's.
const FOLDERS = {learn: ["shared"], personalize: ["shared"], shared: []};

test("a view imports shared modules, never the other view's; shared imports no view", () => {
  const graph = importGraph(roots);
  const folder = (f) => relative(resolve(ui, "js"), f).split(sep)[0];
  const wrong = [];
  for (const [file, deps] of graph) {
    const from = folder(file);
    if (!(from in FOLDERS)) {
      assert.ok(file === resolve(ui, "app.js"), `${relative(ui, file)} is in no folder of js/ (${Object.keys(FOLDERS).join(", ")})`);
      continue;
    }
    for (const d of deps) {
      const to = folder(d);
      if (to !== from && !FOLDERS[from].includes(to)) wrong.push(`${relative(ui, file)} → ${relative(ui, d)}`);
    }
  }
  assert.deepEqual(wrong, []);
});
