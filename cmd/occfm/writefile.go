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
//   - through a symbolic link, to the file it points to (the link stays);
//   - to a path that is not a regular file (/dev/stdout, a named pipe,
//     /dev/null), straight through, as a shell redirection would;
//   - otherwise atomically: into a temporary file beside the target, synced,
//     then renamed over it, so that a failed or interrupted write leaves
//     any existing file as it was. The new file keeps the old one's
//     permissions (a model file holds user IDs: 0600 stays 0600); a new
//     file gets 0666 less the umask, as any file the user creates.
//
// The temporary file is named after the target and the process
// (".m.occfm.partial-save-<pid>.tmp"), so that one left by a killed run says
// what it is.
func writeFile(path string, write func(w io.Writer) error) error {
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
	tmp := partialName(target)
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
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

// partialName is the temporary file writeFile renames over target.
func partialName(target string) string {
	return filepath.Join(filepath.Dir(target), "."+filepath.Base(target)+".occfm.partial-save-"+
		strconv.Itoa(os.Getpid())+"-"+strconv.FormatUint(rand.Uint64()%1e6, 10)+".tmp")
}

// writeThrough writes to a path that is not a regular file.
func writeThrough(target string, write func(w io.Writer) error) error {
	f, err := os.OpenFile(target, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	werr := write(f)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	return werr
}

// writeSynced writes to f, syncs and closes it.
func writeSynced(f *os.File, write func(w io.Writer) error) error {
	err := write(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// checkWritable reports why writeFile could not write path, before a run
// spends its time learning: a missing or read-only folder, a folder in the
// file's place. It creates and removes the temporary file writeFile would.
func checkWritable(path string) error {
	target, info, err := resolveTarget(path)
	if err != nil {
		return err
	}
	if info != nil && !info.Mode().IsRegular() {
		f, err := os.OpenFile(target, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		return f.Close()
	}
	tmp := partialName(target)
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
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

// createOutput opens path for a stream of output: a regular file is
// created or truncated, a device or named pipe is written through, never
// replaced.
func createOutput(path string) (*os.File, error) {
	if info, err := os.Stat(path); err == nil && !info.Mode().IsRegular() {
		if info.IsDir() {
			return nil, fmt.Errorf("%s is a folder, want a file name", path)
		}
		return os.OpenFile(path, os.O_WRONLY, 0)
	}
	return os.Create(path)
}
