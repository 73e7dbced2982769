package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// writeFile writes what write writes to path, as a user expects of a file written for them:
//
//   - to an open file of the process (/dev/stdout, /dev/stderr, /dev/fd/N,
//     /proc/self/fd/N), through that open file, where it stands: after
//     what a log opened to append (>>) holds, into a pipe (>(gzip > m.gz));
//   - through a symbolic link, to the file it points to (the link stays);
//   - to a path that is not a regular file (a named pipe, /dev/null),
//     straight through, as a shell redirection would;
//   - otherwise atomically: into a temporary file beside the target, synced,
//     then renamed over it, so that a failed or interrupted write leaves
//     any existing file as it was. The new file keeps the old one's
//     permissions (a model file holds user IDs: 0600 stays 0600); a new
//     file gets 0666 less the umask, as any file the user creates.
//
// The temporary file is named after the process, not the target
// (".occfm-partial-save-<pid>-<n>.tmp", at most 38 bytes): it fits in the
// folder whenever the target's name does, and one left by a killed run says
// what it is.
func writeFile(path string, write func(w io.Writer) error) error {
	if f, ok, err := openDescriptor(path); ok {
		if err != nil {
			return err
		}
		return writeClose(f, write)
	}
	target, info, err := resolveTarget(path)
	if err != nil {
		return err
	}
	if info != nil && !info.Mode().IsRegular() {
		return writeThrough(target, write)
	}
	perm := fs.FileMode(0o666) // the umask applies
	if info != nil {
		perm = info.Mode().Perm()
	}
	f, tmp, err := createPartial(filepath.Dir(target), perm)
	if err != nil {
		return err
	}
	if err := writeSynced(f, write); err != nil {
		os.Remove(tmp)
		return err
	}
	if info != nil {
		// Exactly the old mode: the umask may have taken bits it had.
		if err := os.Chmod(tmp, perm); err != nil {
			os.Remove(tmp)
			return err
		}
	}
	if err := os.Rename(tmp, target); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// resolveTarget follows path's symbolic links to the file they name, and
// returns it with its FileInfo, or nil when it does not exist yet.
func resolveTarget(path string) (string, fs.FileInfo, error) {
	target := path
	if resolved, err := filepath.EvalSymlinks(path); err == nil {
		target = resolved
	} else if l, lerr := os.Lstat(path); lerr == nil && l.Mode()&fs.ModeSymlink != 0 {
		// A dangling link: write the file it names.
		dest, err := os.Readlink(path)
		if err != nil {
			return "", nil, err
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(path), dest)
		}
		target = dest
	}
	info, err := os.Stat(target)
	if errors.Is(err, fs.ErrNotExist) {
		return target, nil, nil
	}
	if err != nil {
		return "", nil, err
	}
	if info.IsDir() {
		return "", nil, fmt.Errorf("%s is a folder, want a file name", target)
	}
	return target, info, nil
}

// createPartial creates the temporary file writeFile renames over a
// target in dir, with perm (less the umask), and returns it with its name.
func createPartial(dir string, perm fs.FileMode) (*os.File, string, error) {
	for try := 0; ; try++ {
		name := filepath.Join(dir, ".occfm-partial-save-"+strconv.Itoa(os.Getpid())+"-"+
			strconv.FormatUint(rand.Uint64()%1e6, 10)+".tmp")
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) && try < 100 {
			continue // one of another save of this process, or left by a killed one of the same number
		}
		return f, name, err
	}
}

// writeThrough writes to a path that is not a regular file.
func writeThrough(target string, write func(w io.Writer) error) error {
	f, err := os.OpenFile(target, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	return writeClose(f, write)
}

// writeClose writes to f and closes it.
func writeClose(f *os.File, write func(w io.Writer) error) error {
	werr := write(f)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	return werr
}

// syncFile is (*os.File).Sync; tests replace it to fail as a full disk
// would.
var syncFile = (*os.File).Sync

// writeSynced writes to f, syncs and closes it.
func writeSynced(f *os.File, write func(w io.Writer) error) error {
	err := write(f)
	if err == nil {
		err = syncFile(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// checkWritable reports why writeFile could not write path, before a run
// spends its time learning: a missing or read-only folder, a folder in the
// file's place, a descriptor that is not open for writing. For a regular
// file it creates and removes the temporary file writeFile would; a file
// written through is checked by its kind and permissions, never opened:
// opening a named pipe would hand its reader an empty file, or wait for a
// reader.
func checkWritable(path string) error {
	if f, ok, err := openDescriptor(path); ok {
		if err != nil {
			return err
		}
		return f.Close()
	}
	target, info, err := resolveTarget(path)
	if err != nil {
		return err
	}
	if info != nil && !info.Mode().IsRegular() {
		if info.Mode()&fs.ModeSocket != 0 {
			return fmt.Errorf("%s is a socket, want a file, a device or a named pipe", target)
		}
		return canWrite(target)
	}
	f, tmp, err := createPartial(filepath.Dir(target), 0o600)
	if err != nil {
		// Name the folder, not the temporary file: "no such file or
		// directory", "permission denied".
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("cannot write in the folder %s: %w", filepath.Dir(target), err)
	}
	f.Close()
	return os.Remove(tmp)
}

// sameAsStdout reports whether path names the file standard output
// already writes (-out /dev/stdout): opened again, it would start at
// offset 0 over what the shell's redirection holds.
func sameAsStdout(path string) bool {
	pi, err := os.Stat(path)
	if err != nil {
		return false
	}
	si, err := os.Stdout.Stat()
	return err == nil && os.SameFile(pi, si)
}

// createOutput opens path for a stream of output: an open file of the
// process (/dev/stderr, /dev/fd/N: openDescriptor) is written where it
// stands, appended if the shell appends; a regular file is created or
// truncated; a device or named pipe is written through, never replaced.
func createOutput(path string) (*os.File, error) {
	if f, ok, err := openDescriptor(path); ok {
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return f, nil
	}
	if info, err := os.Stat(path); err == nil && !info.Mode().IsRegular() {
		if info.IsDir() {
			return nil, fmt.Errorf("%s is a folder, want a file name", path)
		}
		return os.OpenFile(path, os.O_WRONLY, 0)
	}
	return os.Create(path)
}
