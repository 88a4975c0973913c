package safefile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// createTemp opens a file in dir with no name (O_TMPFILE), which vanishes
// if the process dies before commit; a file system without O_TMPFILE gets
// a named temporary file.
func createTemp(dir, target string) (*tempFile, error) {
	fd, err := unix.Open(dir, unix.O_RDWR|unix.O_TMPFILE|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return createNamed(dir, target)
	}
	return &tempFile{f: os.NewFile(uintptr(fd), filepath.Join(dir, "(unnamed)"))}, nil
}

// commit gives t a name beside target and renames it over target. The
// file gets its name (linkat through /proc/self/fd) only just before the
// rename; if that fails the contents are copied to a named file.
func (t *tempFile) commit(target string) error {
	if t.name == "" {
		name, err := t.link(target)
		if err != nil {
			return err
		}
		t.name = name
	}
	if err := t.f.Close(); err != nil {
		return err
	}
	return os.Rename(t.name, target)
}

// link names the unnamed file t beside target, or copies it to a named
// temporary file where /proc is missing.
func (t *tempFile) link(target string) (string, error) {
	dir := filepath.Dir(target)
	for range 100 {
		named, err := createNamed(dir, target)
		if err != nil {
			return "", err
		}
		name := named.name
		named.abort() // only the unique name is kept
		err = unix.Linkat(unix.AT_FDCWD, fmt.Sprintf("/proc/self/fd/%d", t.f.Fd()), unix.AT_FDCWD, name, unix.AT_SYMLINK_FOLLOW)
		if err == nil {
			return name, nil
		}
		if err == unix.EEXIST {
			continue
		}
		return t.copyNamed(dir, target)
	}
	return t.copyNamed(dir, target)
}

// copyNamed copies t's contents to a named temporary file, which replaces t.
func (t *tempFile) copyNamed(dir, target string) (string, error) {
	named, err := createNamed(dir, target)
	if err != nil {
		return "", err
	}
	fi, err := t.f.Stat()
	if err == nil {
		err = named.f.Chmod(fi.Mode().Perm())
	}
	if err == nil {
		_, err = t.f.Seek(0, io.SeekStart)
	}
	if err == nil {
		_, err = io.Copy(named.f, t.f)
	}
	if err == nil {
		err = named.f.Sync()
	}
	if err != nil {
		named.abort()
		return "", err
	}
	t.f.Close()
	t.f = named.f
	return named.name, nil
}
