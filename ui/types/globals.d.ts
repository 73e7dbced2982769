// The names the page finds on globalThis, for tsc's check of the page's
// JS (ui/tsconfig.json): Go's wasm_exec.js is a classic script that
// index.html loads before app.js. uPlot, another, declares its own global
// (ui/node_modules/uplot/dist/uPlot.d.ts, which tsconfig.json includes).

/** Go's wasm_exec.js: runs a Go program compiled with GOOS=js GOARCH=wasm. */
declare class Go {
  importObject: WebAssembly.Imports;
  argv: string[];
  env: Record<string, string>;
  exited: boolean;
  run(instance: WebAssembly.Instance): Promise<void>;
}

/**
 * wasm-start.js's compile of occfm.wasm, started in the page's head (or by
 * app.js when that script has not run).
 */
declare var occfmWasm: Promise<WebAssembly.Module> | undefined;

/**
 * globalThis.occfm, which the Go program (wasm/) sets before it fires
 * "occfm-ready": the methods the page may call, as wasm/doc.go documents
 * them (wasm/api.go apiTable, picture_js.go, lib_js.go). The
 * modules reach it through shared/state.js's occfm (setCore), not the
 * global. Snapshots and the other objects are left untyped (any): their
 * fields are doc.go's. A method that panics in Go answers with an error
 * snapshot ({state: "error", error}) whatever it returns otherwise.
 */
interface OccfmCore {
  /** The registry: [{name, plain, summary, personal?, mixture?, delta?, deltaText?, eta?, …}]. */
  learners(): any[];
  /** The built-in demos: [{name, title, short, task}]. */
  demos(): any[];
  /** Starts a session for the JSON config; returns its snapshot. */
  start(config: string): any;
  /** Gives the session's file a chunk of its bytes; returns the bytes taken. */
  feed(bytes: Uint8Array): number;
  /** The file has no more chunks. */
  end(): void;
  /** The bytes the session would like buffered ahead (0: enough). */
  wanted(): number;
  /** The text a file's first bytes begin with (gunzipped when gzip), at most 4 KiB. */
  head(bytes: Uint8Array): string;
  /** Learns for at most ms milliseconds and maxRows rows (0: no limit); returns the snapshot. */
  run(ms: number, maxRows: number): any;
  /** Draws the Go-owned views if rows were learned since the last time. */
  render(): void;
  /** The snapshot of now, without learning; draws the Go-owned views. */
  snapshot(): any;
  /** Starts the current session again from row 0; returns its snapshot. */
  reset(): any;
  /** The model views and saveModel follow learner name; false when it does not race. */
  follow(name: string): boolean;
  /** The followed learner's model file: {bytes, learner, rows} or {error}. */
  saveModel(): any;
  /** Why a model file's first bytes (of a file of size bytes) cannot be one, or "". */
  modelHead(head: Uint8Array, size: number): string;
  /** Validates and keeps a model file: {learner, rows, features, task, format, bytes} or {error}. */
  loadModel(bytes: Uint8Array): any;
  /** Back to fresh learners at the next start. */
  forgetModel(): void;
  /** The followed learner's C as a picture, or null (no session, no model). */
  picture(): any;
  /** The page has drawn the last picture. */
  pictureDrawn(): void;
  /** What the demo's true model and a constant guess score, or null. */
  reference(): any;
  /** The learner's last Frank-Wolfe (or FTRL) step. */
  fwStep(): any;
  /**
   * The library's calls (wasm/lib_js.go libTable): ui/lib/occfm.js's, and the
   * Personalize view's, which drives a Recommender with them. Untyped here:
   * ui/lib/occfm.d.ts types the library over them.
   */
  lib: any;
}
