package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// openDescriptor returns a new descriptor of the open file that path
// names, when path names an open file of this process: /dev/stdin,
// /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N, or a symbolic link
// to one of them. It returns ok false for any other path.
//
// On Linux these paths are symbolic links to what the descriptor holds: a
// file (the log of `>> app.log`), pipe:[N] (bash's `>(gzip > m.gz)`), a
// terminal. Opened by name, the file would be opened anew, at offset 0 and
// without the O_APPEND of the shell's >>, and a pipe not at all. The copy
// (dup(2)) shares the descriptor's offset and flags, so what is written
// goes where the shell meant it to, appended if it appends. Closing it
// leaves the descriptor open.
func openDescriptor(path string) (f *os.File, ok bool, err error) {
	fd, ok := descriptorOf(path)
	if !ok {
		return nil, false, nil
	}
	syscall.ForkLock.RLock() // no child inherits the copy
	nfd, err := syscall.Dup(fd)
	if err == nil {
		syscall.CloseOnExec(nfd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, true, fmt.Errorf("descriptor %d is not open: %w", fd, err)
	}
	flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(nfd), syscall.F_GETFL, 0)
	if errno == 0 && flags&syscall.O_ACCMODE == syscall.O_RDONLY {
		syscall.Close(nfd)
		return nil, true, fmt.Errorf("descriptor %d is open for reading only", fd)
	}
	return os.NewFile(uintptr(nfd), path), true, nil
}

// descriptorOf returns the descriptor path names, following its symbolic
// links one at a time (a descriptor's own link leads to its file, which
// must not be taken for the path).
func descriptorOf(path string) (int, bool) {
	p, err := filepath.Abs(path)
	if err != nil {
		return 0, false
	}
	for range 40 { // Linux's bound on the links of a path
		if fd, ok := descriptorName(p); ok {
			return fd, true
		}
		// The folder's links (/dev/fd → /proc/self/fd → /proc/<pid>/fd),
		// then the name's own.
		dir, err := filepath.EvalSymlinks(filepath.Dir(p))
		if err != nil {
			return 0, false
		}
		p = filepath.Join(dir, filepath.Base(p))
		if fd, ok := descriptorName(p); ok {
			return fd, true
		}
		dest, err := os.Readlink(p)
		if err != nil {
			return 0, false // not a link
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(dir, dest)
		}
		p = dest
	}
	return 0, false
}

// descriptorName returns the descriptor the clean absolute path p names
// by its spelling: /dev/stdout is 1, /dev/fd/N, /proc/self/fd/N,
// /proc/thread-self/fd/N and /proc/<this process>/[task/<tid>/]fd/N are N.
func descriptorName(p string) (int, bool) {
	switch p {
	case "/dev/stdin":
		return 0, true
	case "/dev/stdout":
		return 1, true
	case "/dev/stderr":
		return 2, true
	}
	dir, name := filepath.Split(p)
	fd, err := strconv.Atoi(name)
	if err != nil || fd < 0 || strconv.Itoa(fd) != name {
		return 0, false
	}
	self := "/proc/" + strconv.Itoa(os.Getpid()) + "/"
	switch dir {
	case "/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", self + "fd/":
		return fd, true
	}
	if tid, ok := strings.CutPrefix(dir, self+"task/"); ok {
		tid, ok = strings.CutSuffix(tid, "/fd/")
		return fd, ok && tid != "" && !strings.Contains(tid, "/")
	}
	return 0, false
}

// canWrite reports whether this process may open path for writing, by its
// permissions, without opening it.
func canWrite(path string) error {
	const wOK = 2 // access(2)'s W_OK
	if err := syscall.Access(path, wOK); err != nil {
		return &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return nil
}
