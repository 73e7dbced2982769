// command.js: the shell commands that replay a page run with the command
// line (docs/cli.md, "Replaying a page run"). Pure: no DOM, no state; the
// page's "Copy as command" and a Go test (wasm/command_test.go) call it.

// commandLine returns the commands for the run that cfg (the config the
// page passed to occfm.start) started, as far as run says it got: rows
// played, its task, whether it is done, and whether its predictions are
// clipped (a snapshot's learners[0].clip), and the model file it
// continues, if any (model: its file's name). A built-in demo has no file:
// occfm gen writes its rows first, with the page's seed; the page numbers a
// demo's features as the command line numbers its file's. What the command
// line cannot replay is said in a comment line.
export function commandLine(cfg, run) {
  const lines = [];
  const args = ["occfm", "run"];
  const flag = (name, value, keep = true) => { if (keep) args.push(name, String(value)); };
  const rows = run.rows || 0;
  if (cfg.source === "demo") {
    const file = `${cfg.demo}.svm`;
    lines.push(shellLine(["occfm", "gen", "-demo", cfg.demo, "-seed", String(Math.max(cfg.seed || 0, 1)),
      "-rows", String(rows), "-out", file]));
    flag("-data", file);
    flag("-task", run.task);
  } else {
    flag("-data", cfg.file || "FILE");
    flag("-format", cfg.format, !!cfg.format && cfg.format !== "auto");
    flag("-task", cfg.task, !!cfg.task && cfg.task !== "auto");
    flag("-shuffle", cfg.shuffle, !!cfg.shuffle);
    flag("-limit", rows, !run.done && !cfg.shuffle && rows > 0);
  }
  if (run.model) flag("-load", run.model); // the model fixes the learner and its settings
  else flag("-learner", (cfg.learners || []).join(","));
  const own = !run.model;
  flag("-delta", cfg.delta, own && !!cfg.delta);
  flag("-eta", cfg.eta, own && !!cfg.eta);
  flag("-gamma", cfg.gamma, own && !!cfg.gamma && cfg.gamma !== "1/sqrt(t)");
  flag("-loss", cfg.loss, own && !!cfg.loss && cfg.loss !== "auto");
  flag("-seed", cfg.seed, own && !!cfg.seed);
  if (cfg.clip === "on" || cfg.clip === "off") flag("-clip", cfg.clip);
  else if (cfg.source === "demo" && run.clip) flag("-clip", "on"); // a demo's file is LibSVM, which auto leaves unclipped
  flag("-on-diverge", "pause", cfg.onDiverge === "pause");
  flag("-on-error", "skip", cfg.onError === "skip");
  lines.push(shellLine(args));
  if (cfg.roles && Object.keys(cfg.roles).length > 0) {
    lines.push("# the column roles set in the page have no flag: the command line takes the CSV's own");
  }
  if (cfg.shuffle && !run.done) {
    lines.push(`# the page had played ${rows} of the shuffled rows; this plays them all`);
  }
  return lines.join("\n");
}

// shellLine joins args into one line a POSIX shell reads back as args: an
// argument with a character other than a letter, a digit or one of
// -_./,=:+@% is put in single quotes.
export function shellLine(args) {
  return args.map((a) => (/^[A-Za-z0-9_./,=:+@%-]+$/.test(a) ? a : `'${a.replaceAll("'", "'\\''")}'`)).join(" ");
}
