// A classic script in the page's head, run as soon as it arrives (async):
// it starts compiling the learner, occfm.wasm, while the page's modules
// are still loading. WebAssembly.compileStreaming compiles the bytes as
// they come in, on the browser's own threads; app.js instantiates the
// compiled module once its modules have run. Without it the compile would
// start only then, after the module graph, and a cold load would wait for
// it after the last byte. app.js makes the same call when this script has
// not run (either one that comes first starts the compile, the other uses
// it). The page's link rel="preload" has asked for the file already; this
// fetch is served from that download.
//
// The one-file page carries the wasm inline and leaves this script out
// (internal/onefile); from the disk (file://), where a fetch is refused and
// the page cannot start, it does nothing (start-check.js says why).
(function () {
  if (location.protocol === "file:" || !("compileStreaming" in WebAssembly)) return;
  if (!globalThis.occfmWasm) {
    globalThis.occfmWasm = WebAssembly.compileStreaming(fetch("occfm.wasm"));
    // app.js reports a failure; until it asks, the rejection is not unhandled.
    globalThis.occfmWasm.catch(function () {});
  }
})();
