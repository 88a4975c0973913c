// Package safefile writes a file so that no reader or crash ever sees half
// of it and no two writers lose each other's work.
//
// Write replaces a file atomically: the new contents go to a file in the
// same folder that has no name while it is written (Linux's O_TMPFILE; a
// named temporary file elsewhere), are flushed to disk, and are then
// renamed over the target. A process killed at any point, even by SIGKILL,
// leaves the old file or the new one and no temporary file behind (on
// Linux; elsewhere the next writer removes a temporary file left by a
// killed one).
//
// Lock takes an exclusive advisory lock (flock) on a lock file beside the
// target, "NAME.lock", held until Unlock, so that a read-modify-write cycle
// (load a state, add games, save it) in one process never interleaves with
// another's: Update does the three steps under the lock.
//
// A target that is a symbolic link is followed to the file it names, so the
// link stays a link and its target gets the new contents.
package safefile
