// Every module of the page links: each name it imports is exported by the
// module it names (a wrong import is a SyntaxError at link time, before any
// code runs, so the page would not start). Evaluation may then fail for the
// lack of a DOM in node; only link errors count here.
import {test} from "node:test";
import assert from "node:assert/strict";
import {readdirSync} from "node:fs";

globalThis.location = {hash: ""};

// The modules of js/ and of its folders (js/learn/, js/personalize/, js/shared/).
const modules = ["../app.js", ...readdirSync(new URL("../js/", import.meta.url), {recursive: true})
  .filter((f) => f.endsWith(".js")).sort().map((f) => `../js/${f}`)];

for (const m of modules) {
  test(`${m} links`, async () => {
    try {
      await import(m);
    } catch (err) {
      assert.ok(!(err instanceof SyntaxError), `${m}: ${err.message}`);
    }
  });
}
