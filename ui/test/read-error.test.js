// Unit tests of readError (node:test; run by make test-js): a folder given
// as a file is named a folder; any other failed read keeps the browser's
// words.
import {test} from "node:test";
import assert from "node:assert/strict";
import {readError} from "../js/shared/read-error.js";

const networkError = new TypeError("network error");

test("a folder, which fails at its first byte, is named a folder", () => {
  for (const size of [0, 4096, 12288]) {
    assert.equal(readError({name: "c", type: "", size}, networkError), "c is a folder, not a file: pick a file inside it");
  }
});

test("a file that fails is not called a folder", () => {
  const cases = [
    [{name: "u.data", type: "", size: 1979173}, 0],
    [{name: "a.csv", type: "text/csv", size: 4096}, 0],
    [{name: "b", type: "", size: 8192}, 100], // bytes were read: a file cut off
  ];
  for (const [file, read] of cases) {
    assert.equal(readError(file, networkError, read), `${file.name}: cannot read it: network error`);
  }
});
