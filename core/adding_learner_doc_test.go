//go:build !js

package core

import (
	"bytes"
	"fmt"
	"go/format"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// addingDoc is the page TestAddingALearnerDoc runs, relative to core/.
const addingDoc = "../docs/adding-a-learner.md"

// docBlock is a fenced block of a page: ```lang mark.
type docBlock struct {
	lang, mark string
	step       string // the heading of the section holding it: "1. The file"
	line       int    // of the opening fence, from 1
	text       string
}

// docPage is a Markdown page cut into its sections (by "## " heading) and
// its fenced blocks.
type docPage struct {
	text     string
	sections map[string]string // heading → its text, blocks included
	blocks   []docBlock
}

// readDocPage reads and cuts the page at path.
func readDocPage(t *testing.T, path string) docPage {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p := docPage{text: string(b), sections: map[string]string{}}
	step := ""
	var open *docBlock
	var body []string
	for i, line := range strings.Split(p.text, "\n") {
		switch {
		case open != nil && line == "```":
			open.text = strings.Join(body, "\n") + "\n"
			p.blocks = append(p.blocks, *open)
			open, body = nil, nil
		case open != nil:
			body = append(body, line)
		case strings.HasPrefix(line, "```"):
			lang, mark, _ := strings.Cut(strings.TrimPrefix(line, "```"), " ")
			open = &docBlock{lang: lang, mark: strings.TrimSpace(mark), step: step, line: i + 1}
		case strings.HasPrefix(line, "## "):
			step = strings.TrimPrefix(line, "## ")
		}
		if open == nil || line != "```" {
			p.sections[step] += line + "\n"
		}
	}
	if open != nil {
		t.Fatalf("%s:%d: a fenced block is not closed", path, open.line)
	}
	return p
}

// TestAddingALearnerDoc runs docs/adding-a-learner.md: in a copy of the
// module in a temporary directory it writes the page's example file, adds
// its registry line, and runs the page's go commands, checking each step's
// claim (that section "What the page's test checks" lists them): the
// example builds with core and its tests (go vet), the CLI lists and plays
// the learner, the tests the page names fail without steps 3 and 4 and
// pass after them. The go commands run with -trimpath, so that the copy's
// packages are found in the build cache whatever the directory.
func TestAddingALearnerDoc(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the example of docs/adding-a-learner.md in a copy of the module and runs its go commands: about 15 s with a warm build cache, a minute after a change to core")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH:", err)
	}
	doc := readDocPage(t, addingDoc)
	const name = "docs/adding-a-learner.md"
	failf := func(step, format string, args ...any) {
		t.Helper()
		t.Fatalf("%s, step %q: %s", name, step, fmt.Sprintf(format, args...))
	}
	errorf := func(step, format string, args ...any) {
		t.Helper()
		t.Errorf("%s, step %q: %s", name, step, fmt.Sprintf(format, args...))
	}

	// The blocks, by mark.
	var files, quotes []docBlock
	var edit, fixture, check []docBlock
	for _, b := range doc.blocks {
		switch {
		case b.lang == "go" && strings.HasPrefix(b.mark, "file="):
			files = append(files, b)
		case b.lang == "go" && strings.HasPrefix(b.mark, "edit="):
			edit = append(edit, b)
		case b.lang == "go" && b.mark == "quote":
			quotes = append(quotes, b)
		case b.lang == "sh" && b.mark == "fixture":
			fixture = append(fixture, b)
		case b.lang == "sh" && b.mark == "check":
			check = append(check, b)
		case b.lang == "go" || b.lang == "sh":
			failf(b.step, "line %d: a %s block marked %q; mark it file=PATH, edit=PATH or quote (go), fixture or check (sh)", b.line, b.lang, b.mark)
		}
	}
	if len(files) == 0 || len(edit) != 1 || len(fixture) == 0 || len(check) == 0 {
		t.Fatalf("%s: %d file= blocks, %d edit= blocks, %d fixture and %d check blocks; want at least one file, one edit, one fixture and one check", name, len(files), len(edit), len(fixture), len(check))
	}

	// The tests the page names exist.
	testFuncs := docTestFuncs(t, "..")
	for _, m := range regexp.MustCompile("`((?:Test|Example|Fuzz|Benchmark)[A-Za-z0-9_]*)`").FindAllStringSubmatch(doc.text, -1) {
		if !testFuncs[m[1]] {
			t.Errorf("%s names %s, which no _test.go file of the module declares", name, m[1])
		}
	}
	// Quoted code is core's.
	coreLines := map[string]bool{}
	for _, src := range docGoSources(t, ".", false) {
		for _, l := range strings.Split(src, "\n") {
			coreLines[strings.TrimSpace(l)] = true
		}
	}
	for _, b := range quotes {
		for _, l := range strings.Split(b.text, "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "//") && !coreLines[l] {
				errorf(b.step, "line %d quotes %q, which is no line of core's source", b.line, l)
			}
		}
	}

	// Step 1: the file.
	var specVar, learner, summary string
	for _, b := range files {
		path := strings.TrimPrefix(b.mark, "file=")
		if got, err := format.Source([]byte(b.text)); err != nil || !bytes.Equal(got, []byte(b.text)) {
			failf(b.step, "%s is not gofmt'd (%v)", path, err)
		}
		if _, err := os.Stat(filepath.Join("..", path)); err == nil {
			failf(b.step, "%s is a file of the repository already: the page's example must be new", path)
		}
		if m := regexp.MustCompile(`(?m)^var (\w+Spec) = Spec\{`).FindStringSubmatch(b.text); m != nil {
			specVar = m[1]
			spec := b.text[strings.Index(b.text, m[0]):]
			if n := regexp.MustCompile(`\n\tName:\s+"([^"]+)"`).FindStringSubmatch(spec); n != nil {
				learner = n[1]
			}
			if s := regexp.MustCompile(`\n\tSummary:\s+"([^"]+)"`).FindStringSubmatch(spec); s != nil {
				summary = s[1]
			}
		}
	}
	if specVar == "" || learner == "" || summary == "" {
		failf(files[0].step, "the example declares no var …Spec = Spec{…} with a Name and a Summary (spec %q, name %q, summary %q)", specVar, learner, summary)
	}
	nameRe := regexp.MustCompile(`(^|[^a-z0-9-])` + regexp.QuoteMeta(learner) + `($|[^a-z0-9-])`)

	root := t.TempDir()
	docCopyModule(t, "..", root)
	for _, b := range files {
		docWriteFile(t, filepath.Join(root, strings.TrimPrefix(b.mark, "file=")), b.text)
	}

	// Step 2: the registry line.
	reg := edit[0]
	lines := strings.Split(strings.TrimSpace(reg.text), "\n")
	if len(lines) < 3 || lines[0] != "var registry = byName(" || lines[len(lines)-1] != ")" || strings.TrimSpace(lines[len(lines)-2]) != specVar+"," {
		failf(reg.step, "the block is not var registry = byName( … %s, ): %q", specVar, reg.text)
	}
	regPath := filepath.Join(root, strings.TrimPrefix(reg.mark, "edit="))
	src := docReadFile(t, regPath)
	at := strings.Index(src, "var registry = byName(\n")
	end := strings.Index(src[max(at, 0):], "\n)\n")
	if at < 0 || end < 0 {
		failf(reg.step, "%s holds no var registry = byName(…): the page names the wrong file", reg.mark)
	}
	end += at + 1
	docWriteFile(t, regPath, src[:end]+"\t"+specVar+",\n"+src[end:])

	// The commands.
	env := append(os.Environ(), "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -trimpath"), "GOWORK=off")
	run := func(b docBlock, cmd []string) (string, error) {
		t.Helper()
		c := exec.Command(goTool, cmd[1:]...)
		c.Dir, c.Env = root, env
		out, err := c.CombinedOutput()
		t.Logf("%s (%s): %s", docCommandLine(cmd), b.mark, docFirstLine(string(out), err))
		return string(out), err
	}
	commands := func(b docBlock) [][]string {
		var out [][]string
		for _, l := range strings.Split(b.text, "\n") {
			if l = strings.TrimSpace(l); l == "" || strings.HasPrefix(l, "#") {
				continue
			}
			words, err := docShellWords(l)
			if err != nil || words[0] != "go" {
				failf(b.step, "line %q: want a go command of plain words and '…' (%v)", l, err)
			}
			out = append(out, words)
		}
		return out
	}
	// checkCLI checks the output of occfm learners and occfm run -learner,
	// and returns which of the two cmd is.
	checkCLI := func(b docBlock, cmd []string, out string) (lists, plays bool) {
		t.Helper()
		if len(cmd) < 4 || cmd[1] != "run" || cmd[2] != "./cmd/occfm" {
			return false, false
		}
		switch {
		case cmd[3] == "learners":
			if !regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(learner) + `( \(default\))? +` + regexp.QuoteMeta(summary) + `$`).MatchString(out) {
				errorf(b.step, "%s does not list %s with its Summary %q:\n%s", docCommandLine(cmd), learner, summary, out)
			}
			return true, false
		case cmd[3] == "run" && slices.Index(cmd, "-learner") > 0 && slices.Index(cmd, "-learner") == slices.Index(cmd, learner)-1:
			if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(learner) + ` +[0-9]`).MatchString(out) {
				errorf(b.step, "%s reports no line for %s:\n%s", docCommandLine(cmd), learner, out)
			}
			return false, true
		}
		return false, false
	}

	// The lists of step 3, and the step of the page that names each file.
	lists := []struct {
		test, file string
		add        func(src string) (string, bool)
	}{
		{"ExampleNewLearner", "", func(src string) (string, bool) { return addToExampleOutput(src, learner) }},
		{"TestLibTypesDocumented", "ui/lib/occfm.d.ts", func(src string) (string, bool) { return addToLearnerName(src, learner) }},
	}
	for i, l := range lists {
		if l.file == "" {
			l.file = docFileDeclaring(t, root, "core", l.test)
			lists[i].file = l.file
		}
	}
	listStep := ""
	for step, text := range doc.sections {
		if strings.Contains(text, "`"+lists[0].file+"`") {
			listStep = step
		}
	}
	for _, l := range lists {
		if listStep == "" || !strings.Contains(doc.sections[listStep], "`"+l.file+"`") {
			t.Fatalf("%s: no step says to add the new name to %s, which %s holds to the registry", name, l.file, l.test)
		}
	}
	fixtureStep := fixture[0].step
	// Before steps 3 and 4, exactly these tests fail, each naming the
	// learner.
	want := map[string]string{lists[0].test: listStep, lists[1].test: listStep, "TestModelFiles": fixtureStep}

	// Steps 1 and 2 only: the checks.
	failed := map[string]bool{}
	var lists0, plays0 bool
	for _, b := range check {
		for _, cmd := range commands(b) {
			out, err := run(b, cmd)
			fails := docFailedTests(out)
			if err != nil && len(fails) == 0 {
				failf(files[0].step, "%s (step %q), run in a copy of the module after steps %q and %q, fails (%s is the block at line %d of the page): %v\n%s",
					docCommandLine(cmd), b.step, files[0].step, reg.step, strings.TrimPrefix(files[0].mark, "file="), files[0].line, err, out)
			}
			for test, text := range fails {
				failed[test] = true
				switch step, ok := want[test]; {
				case !ok && !nameRe.MatchString(text):
					errorf(b.step, "%s, after steps 1 and 2, fails %s, which no step of the page mends, and not naming %s (does it fail in the repository too?):\n%s", docCommandLine(cmd), test, learner, text)
				case !ok:
					errorf(b.step, "%s, after steps 1 and 2, fails %s, which no step of the page mends:\n%s", docCommandLine(cmd), test, text)
				case !nameRe.MatchString(text):
					errorf(step, "before it %s fails without naming %s:\n%s", test, learner, text)
				}
			}
			l, p := checkCLI(b, cmd, out)
			lists0, plays0 = lists0 || l, plays0 || p
		}
	}
	if !lists0 || !plays0 {
		t.Errorf("%s, step %q: no go run ./cmd/occfm learners (%v) or go run ./cmd/occfm run -learner %s … (%v) among the checks", name, check[0].step, lists0, learner, plays0)
	}
	for test, step := range want {
		if !failed[test] {
			errorf(step, "%s did not fail before this step: it passes without it, or the checks do not run it", test)
		}
	}
	if t.Failed() {
		t.FailNow()
	}

	// Step 3: the lists.
	for _, l := range lists {
		path := filepath.Join(root, l.file)
		src, ok := l.add(docReadFile(t, path))
		if !ok {
			failf(listStep, "cannot find where %s lists the learners", l.file)
		}
		docWriteFile(t, path, src)
	}

	// Step 4: the model file, alone.
	models := filepath.Join(root, "core", "testdata", "model")
	before := docReadDir(t, models)
	for _, b := range fixture {
		for _, cmd := range commands(b) {
			if out, err := run(b, cmd); err != nil {
				failf(b.step, "%s fails: %v\n%s", docCommandLine(cmd), err, out)
			}
		}
	}
	newFile := learner + ".occfm"
	if !strings.Contains(doc.sections[fixtureStep], "`core/testdata/model/"+newFile+"`") {
		errorf(fixtureStep, "the step does not name the file it writes, core/testdata/model/%s", newFile)
	}
	var added, rewritten []string
	for f, b := range docReadDir(t, models) {
		old, ok := before[f]
		switch {
		case !ok:
			added = append(added, f)
		case !bytes.Equal(old, b):
			rewritten = append(rewritten, f)
			docWriteFile(t, filepath.Join(models, f), string(old)) // not committed
		}
	}
	slices.Sort(added)
	slices.Sort(rewritten)
	if !slices.Equal(added, []string{newFile}) {
		failf(fixtureStep, "the command wrote the new files %v to core/testdata/model; want %s alone", added, newFile)
	}
	t.Logf("the fixture command wrote %s and rewrote %v to other bytes (put back)", newFile, rewritten)

	// Step 5: every check passes.
	for _, b := range check {
		for _, cmd := range commands(b) {
			out, err := run(b, cmd)
			if err != nil {
				failf(b.step, "%s, after steps 1 to 4 in a copy of the module, fails: %v\n%s", docCommandLine(cmd), err, out)
			}
			checkCLI(b, cmd, out)
		}
	}
}

// addToExampleOutput adds "// name" to the names of the learners in the
// Output comment of src's ExampleNewLearner, in order.
func addToExampleOutput(src, name string) (string, bool) {
	at := strings.Index(src, "func ExampleNewLearner(")
	out := strings.Index(src[max(at, 0):], "\t// Output:\n")
	if at < 0 || out < 0 {
		return "", false
	}
	i := at + out + len("\t// Output:\n")
	entry := regexp.MustCompile(`^\t// ([a-z][a-z0-9-]*)\n`)
	for {
		m := entry.FindStringSubmatch(src[i:])
		if m == nil || m[1] > name {
			return src[:i] + "\t// " + name + "\n" + src[i:], true
		}
		i += len(m[0])
	}
}

// addToLearnerName adds "name" to the union LearnerName of occfm.d.ts.
func addToLearnerName(src, name string) (string, bool) {
	at := strings.Index(src, "export type LearnerName =")
	end := strings.Index(src[max(at, 0):], ";")
	if at < 0 || end < 0 {
		return "", false
	}
	end += at
	return src[:end] + ` | "` + name + `"` + src[end:], true
}

// docFailedTests returns the top-level tests that go test's output reports
// failed, with the text each printed.
func docFailedTests(out string) map[string]string {
	fails := map[string]string{}
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		test, ok := strings.CutPrefix(l, "--- FAIL: ")
		if !ok {
			continue
		}
		test, _, _ = strings.Cut(test, " ")
		text := []string{l}
		for _, l := range lines[i+1:] {
			if strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "FAIL") || strings.HasPrefix(l, "ok ") {
				break
			}
			text = append(text, l)
		}
		fails[test] = strings.Join(text, "\n")
	}
	return fails
}

// docShellWords splits a command line into words: plain words and '…'.
func docShellWords(line string) ([]string, error) {
	var words []string
	var w strings.Builder
	in, quoted := false, false
	for _, r := range line {
		switch {
		case quoted && r == '\'':
			quoted = false
		case quoted:
			w.WriteRune(r)
		case r == '\'':
			quoted, in = true, true
		case r == ' ' || r == '\t':
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		case strings.ContainsRune(`"\$|&;<>()*?[]{}~`+"`", r):
			return nil, fmt.Errorf("%q needs a shell", r)
		default:
			w.WriteRune(r)
			in = true
		}
	}
	if quoted {
		return nil, fmt.Errorf("unclosed quote")
	}
	if in {
		words = append(words, w.String())
	}
	if len(words) == 0 {
		return nil, fmt.Errorf("no command")
	}
	return words, nil
}

// docCopyModule copies what the page's commands build and read (go.mod,
// go.sum, core, cmd, internal, ui without node_modules, wasm) from the
// module at src to dst.
func docCopyModule(t *testing.T, src, dst string) {
	t.Helper()
	for _, top := range []string{"go.mod", "go.sum", "core", "cmd", "internal", "ui", "wasm"} {
		err := filepath.WalkDir(filepath.Join(src, top), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, err := filepath.Rel(src, path)
			if err != nil {
				return err
			}
			switch {
			case d.IsDir() && d.Name() == "node_modules":
				return filepath.SkipDir
			case d.IsDir():
				return os.MkdirAll(filepath.Join(dst, rel), 0o755)
			case !d.Type().IsRegular():
				return nil
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// docTestFuncs returns the names of the functions the _test.go files under
// root declare.
func docTestFuncs(t *testing.T, root string) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	decl := regexp.MustCompile(`(?m)^func (\w+)\(`)
	for _, src := range docGoSources(t, root, true) {
		for _, m := range decl.FindAllStringSubmatch(src, -1) {
			names[m[1]] = true
		}
	}
	return names
}

// docGoSources returns the Go files under root: the _test.go files if tests,
// else the others.
func docGoSources(t *testing.T, root string, tests bool) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && path != root) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") != tests {
			return nil
		}
		b, err := os.ReadFile(path)
		out = append(out, string(b))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// docFileDeclaring returns the path, relative to root, of the _test.go file
// of dir that declares the function fn.
func docFileDeclaring(t *testing.T, root, dir, fn string) string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(root, dir, "*_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	decl := regexp.MustCompile(`(?m)^func ` + fn + `\(`)
	for _, p := range paths {
		if decl.MatchString(docReadFile(t, p)) {
			return dir + "/" + filepath.Base(p)
		}
	}
	t.Fatalf("no _test.go file of %s declares %s", dir, fn)
	return ""
}

// docReadDir returns the files of dir by name.
func docReadDir(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, e := range entries {
		if e.Type().IsRegular() {
			files[e.Name()] = []byte(docReadFile(t, filepath.Join(dir, e.Name())))
		}
	}
	return files
}

// docReadFile returns the text of the file at path.
func docReadFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// docWriteFile writes text to the file at path.
func docWriteFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// docFirstLine returns how a command ended, for the log: its error, or the
// first line of its output.
func docFirstLine(out string, err error) string {
	if err != nil {
		return err.Error()
	}
	l, _, _ := strings.Cut(strings.TrimSpace(out), "\n")
	return strings.TrimSpace("ok " + l)
}

// docCommandLine writes cmd back as the page has it, quoting the words
// with a shell's special characters.
func docCommandLine(cmd []string) string {
	words := make([]string, len(cmd))
	for i, w := range cmd {
		words[i] = w
		if strings.ContainsAny(w, `"\$|&;<>()*?[]{}~ `+"`") {
			words[i] = "'" + w + "'"
		}
	}
	return strings.Join(words, " ")
}
