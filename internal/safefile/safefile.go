package safefile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/skillgraph/skillgraph/messages"
)

// maxLinks bounds the symbolic links followed, as the kernel does (ELOOP).
const maxLinks = 40

// Resolve returns the file path names after following symbolic links,
// including a final link whose target does not exist yet (a first write
// then creates the target, keeping the link). A chain of links that does
// not end is an error wrapping messages.ErrInput.
func Resolve(path string) (string, error) {
	for range maxLinks {
		fi, err := os.Lstat(path)
		if errors.Is(err, os.ErrNotExist) {
			return path, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			return path, nil
		}
		to, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(path), to)
		}
		path = to
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links: %w", path, messages.ErrInput)
}

// Write replaces the file at path (followed through symbolic links) with
// what write writes, atomically: readers and a crash see the old contents
// or all of the new ones. The new file keeps the old one's permissions
// (0644 for a new file). On any error, path is left as it was.
func Write(path string, write func(io.Writer) error) error {
	target, err := Resolve(path)
	if err != nil {
		return err
	}
	return writeTo(target, write)
}

// writeTo writes target (no symbolic link) atomically.
func writeTo(target string, write func(io.Writer) error) (err error) {
	dir := filepath.Dir(target)
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(target); err == nil {
		mode = fi.Mode().Perm()
	}
	tmp, err := createTemp(dir, target)
	if err != nil {
		// The temporary file's name would only puzzle: name the target.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("write %s: cannot create a file in %s: %w", target, dir, err)
	}
	defer func() {
		if err != nil {
			tmp.abort()
		}
	}()
	if err := tmp.f.Chmod(mode); err != nil {
		return err
	}
	if err := write(tmp.f); err != nil {
		return err
	}
	if err := tmp.f.Sync(); err != nil {
		return err
	}
	if err := tmp.commit(target); err != nil {
		return err
	}
	// The rename is made durable by syncing the folder; a file system
	// that cannot sync a folder still holds the whole file.
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// LockPath returns the lock file's path for a target: NAME.lock beside the
// file the target's symbolic links lead to, so that every name of one
// file shares one lock.
func LockPath(path string) (string, error) {
	target, err := Resolve(path)
	if err != nil {
		return "", err
	}
	return target + ".lock", nil
}

// Locked is an exclusive lock on a file, from Lock.
type Locked struct {
	target string // the file, symbolic links followed
	lock   *os.File
}

// pollLock is how often Lock retries a lock another process holds.
const pollLock = 10 * time.Millisecond

// Lock takes the exclusive lock of the file at path, waiting for another
// holder (another process, or another Lock in this one) to unlock it until
// ctx ends. The lock is flock(2) on the lock file beside the target (see
// LockPath), which is created if needed and left in place; the kernel
// drops it when the process ends, however it ends.
func Lock(ctx context.Context, path string) (*Locked, error) {
	target, err := Resolve(path)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(target+".lock", os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	for {
		ok, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", f.Name(), err)
		}
		if ok {
			break
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", f.Name(), ctx.Err())
		case <-time.After(pollLock):
		}
	}
	removeStale(target)
	return &Locked{target: target, lock: f}, nil
}

// Path returns the locked file's path, symbolic links followed.
func (l *Locked) Path() string { return l.target }

// Write replaces the locked file atomically, as Write does.
func (l *Locked) Write(write func(io.Writer) error) error { return writeTo(l.target, write) }

// Unlock releases the lock. Unlocking twice is a no-op.
func (l *Locked) Unlock() error {
	if l == nil || l.lock == nil {
		return nil
	}
	err := l.lock.Close() // closing the only descriptor releases the flock
	l.lock = nil
	return err
}

// Update reads the file at path under its lock (data is nil, and exists
// false, if there is no file yet), calls change, and if change returns
// contents (non-nil) writes them atomically before unlocking. It is a
// read-modify-write cycle no other Update or Lock holder interleaves with.
func Update(ctx context.Context, path string, change func(data []byte, exists bool) ([]byte, error)) error {
	l, err := Lock(ctx, path)
	if err != nil {
		return err
	}
	defer l.Unlock()
	data, err := os.ReadFile(l.target)
	exists := err == nil
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	out, err := change(data, exists)
	if err != nil || out == nil {
		return err
	}
	return l.Write(func(w io.Writer) error {
		_, err := w.Write(out)
		return err
	})
}
