// Loads the Go core compiled to WebAssembly and lists its learners.
"use strict";

addEventListener("occfm-ready", () => {
  const list = document.getElementById("learners");
  list.replaceChildren(...globalThis.occfm.learners().map((l) => {
    const li = document.createElement("li");
    li.textContent = `${l.name}: ${l.summary}`;
    return li;
  }));
});

const go = new Go();
WebAssembly.instantiateStreaming(fetch("occfm.wasm"), go.importObject)
  .then((res) => go.run(res.instance))
  .catch((err) => {
    document.getElementById("learners").textContent = `could not load the learner: ${err}`;
  });
